# cmake -DBUILD_DIR=dir -DTARGET=target -DOBJECTS=objs -DEXPECT=compiles|fails -P check_probe.cmake
# Builds TARGET (one probe object of tests/layering) in BUILD_DIR after removing its OBJECTS, so
# that the probe is compiled afresh each time, and checks the outcome: EXPECT=compiles, that it
# compiled; EXPECT=fails, that it failed because the solver header was not found (not for
# another reason).
cmake_minimum_required(VERSION 3.24)
foreach(obj IN LISTS OBJECTS)
  file(REMOVE ${obj})
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(EXPECT STREQUAL "compiles")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "layering probe: ${TARGET} should compile with the kernels room's "
                        "include set and did not:\n${out}")
  endif()
  message(STATUS "layering probe: ${TARGET} compiles")
elseif(EXPECT STREQUAL "fails")
  if(rc EQUAL 0)
    message(FATAL_ERROR "layering probe: ${TARGET} compiled: a kernels file can include "
                        "runtime/solver/spatial_operator.hpp, the build does not enforce the "
                        "rooms' layering (cmake/FvRooms.cmake)\n${out}")
  endif()
  if(NOT out MATCHES "runtime/solver/spatial_operator\\.hpp"
     OR NOT out MATCHES "No such file or directory|file not found|cannot open source file")
    message(FATAL_ERROR "layering probe: ${TARGET} failed, but not because the solver header "
                        "was out of reach:\n${out}")
  endif()
  message(STATUS "layering probe: ${TARGET} fails as it should (solver header not found)")
else()
  message(FATAL_ERROR "check_probe.cmake: EXPECT must be compiles or fails")
endif()
