# project(... LANGUAGES ASC): the compiler is pyasc's driver (ASCConfig.cmake).
if(NOT CMAKE_ASC_COMPILER)
  if(DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
    set(CMAKE_ASC_COMPILER "$ENV{ASC}")
  else()
    message(FATAL_ERROR "The ASC language needs find_package(ASC) (pyasc) before project()")
  endif()
endif()
set(CMAKE_ASC_COMPILER_ID "pyasc")
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
