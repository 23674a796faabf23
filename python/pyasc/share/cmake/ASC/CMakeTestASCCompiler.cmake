# The driver works when it answers --version (it then runs the C++ compiler
# for each source; a broken C++ compiler shows in the first build).
if(NOT CMAKE_ASC_COMPILER_WORKS)
  execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version
                  RESULT_VARIABLE _asc_rc OUTPUT_VARIABLE _asc_out ERROR_VARIABLE _asc_out)
  if(NOT _asc_rc EQUAL 0)
    message(FATAL_ERROR "The ASC compiler ${CMAKE_ASC_COMPILER} does not run: ${_asc_out}")
  endif()
  set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
endif()
