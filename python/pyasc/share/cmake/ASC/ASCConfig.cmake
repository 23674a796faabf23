# find_package(ASC): pyasc's stand-in for CANN's ASC package, so that CANN's
# examples (`find_package(ASC)`, `project(x LANGUAGES ASC CXX)`) build .asc
# programs for pyasc's simulated AI cores. The ASC language's compiler is
# pyasc's driver (`python -m pyasc asc-compile`), run through a small script
# written into the build directory. docs/ascendc.md, "CANN's .asc programs".
#
# ASC_PYTHON (or $PYASC_PYTHON) names the Python that has this pyasc; by
# default the active virtual environment's, else python3 on PATH.
cmake_minimum_required(VERSION 3.16)

get_filename_component(_asc_site "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)

if(DEFINED CMAKE_ASC_ARCHITECTURES AND NOT CMAKE_ASC_ARCHITECTURES STREQUAL ""
   AND NOT CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
  message(FATAL_ERROR "ASC (pyasc): CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: the "
                      "simulator models dav-2201 (910B) only")
endif()
# cpu and sim both run on the simulator; npu (some examples' default) too, since there is none
if(DEFINED CMAKE_ASC_RUN_MODE AND NOT CMAKE_ASC_RUN_MODE MATCHES "^(cpu|sim|npu|)$")
  message(FATAL_ERROR "ASC (pyasc): CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: pyasc runs on its "
                      "simulator only (cpu or sim)")
elseif(CMAKE_ASC_RUN_MODE STREQUAL "npu")
  message(STATUS "ASC (pyasc): CMAKE_ASC_RUN_MODE=npu: no NPU here, the program runs on pyasc's "
                 "simulator")
endif()

if(NOT ASC_PYTHON)
  if(DEFINED ENV{PYASC_PYTHON} AND NOT "$ENV{PYASC_PYTHON}" STREQUAL "")
    set(_asc_python "$ENV{PYASC_PYTHON}")
  elseif(DEFINED ENV{VIRTUAL_ENV} AND EXISTS "$ENV{VIRTUAL_ENV}/bin/python")
    set(_asc_python "$ENV{VIRTUAL_ENV}/bin/python")
  else()
    find_program(_asc_python NAMES python3 python)
  endif()
  set(ASC_PYTHON "${_asc_python}" CACHE FILEPATH "the Python that runs pyasc's ASC driver")
endif()

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${_asc_site}" "${ASC_PYTHON}" -m pyasc asc-compile --version
  RESULT_VARIABLE _asc_rc OUTPUT_VARIABLE _asc_version ERROR_VARIABLE _asc_err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _asc_rc EQUAL 0)
  set(ASC_FOUND FALSE)
  message(FATAL_ERROR "ASC (pyasc): ${ASC_PYTHON} cannot run pyasc from ${_asc_site} "
                      "(set ASC_PYTHON or PYASC_PYTHON): ${_asc_err}")
endif()

# The compiler CMake runs: a script, since CMake wants one executable.
set(_asc_script_dir "${CMAKE_BINARY_DIR}/CMakeFiles/pyasc")
file(WRITE "${_asc_script_dir}/tmp/pyasc-asc"
  "#!/bin/sh\n"
  "PYTHONPATH='${_asc_site}'\${PYTHONPATH:+:\$PYTHONPATH} exec '${ASC_PYTHON}' -m pyasc asc-compile \"\$@\"\n")
file(COPY "${_asc_script_dir}/tmp/pyasc-asc" DESTINATION "${_asc_script_dir}"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                   WORLD_READ WORLD_EXECUTE)
set(ASC_COMPILER "${_asc_script_dir}/pyasc-asc")
if(NOT CMAKE_ASC_COMPILER)
  set(CMAKE_ASC_COMPILER "${ASC_COMPILER}")
endif()

list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
set(ASC_VERSION_STRING "${_asc_version}")
set(ASC_FOUND TRUE)

# CANN's helper for definitions of ASC targets (its -D prefixes are dropped,
# as target_compile_definitions drops them)
function(ascendc_compile_definitions target)
  target_compile_definitions(${target} ${ARGN})
endfunction()

# CANN's host libraries, by the names its examples link (target_link_libraries(demo PRIVATE
# tiling_api register platform graph_base unified_dlog m dl)). Each is libasc with the package's
# headers, which carry what the program uses of them (docs/host-tiling.md, "C++"):
#   tiling_api   libtiling_api.so: the library APIs' host tiling (tiling/tiling_api.h; the
#                matmul's, computed by libasc's asc_tiling_*)
#   register     libregister.so: tiling data classes (register/tilingdata_base.h, header-only)
#   platform     libplatform.so: platform_ascendc::PlatformAscendC (libasc's device properties)
#   graph_base   GE's graph types: ge::Shape, ge::DataType (graph/tensor.h, header-only)
#   ascendalog, unified_dlog: CANN's logging, which the examples link but whose calls they do
#                not make here; nothing more than libasc
set(_asc_lib "${_asc_site}/pyasc/lib/libasc.so")
foreach(_asc_name IN ITEMS tiling_api register platform graph_base ascendalog unified_dlog)
  if(NOT TARGET ${_asc_name})
    add_library(${_asc_name} INTERFACE IMPORTED GLOBAL)
    set_target_properties(${_asc_name} PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${_asc_site}/pyasc/include/ascendc;${_asc_site}/pyasc/include"
      INTERFACE_LINK_LIBRARIES "${_asc_lib}")
  endif()
endforeach()
