# cmake -DROOMS=rooms.cmake -DSOURCE_DIR=dir -P check_includes.cmake
# Reads every `#include "..."` of every room's files (ROOMS: the table of cmake/FvRooms.cmake as
# written by tests/layering/CMakeLists.txt) and fails, naming each, on an include of a file of a
# room that the including room does not depend on. The compile catches such an include in a
# .cpp and in the headers its .cpp files include; this catches it also in headers that only
# rooms above include (a kernels header included only by the solver's sources), and in the
# header-only rooms.
cmake_minimum_required(VERSION 3.24)
include(${ROOMS})
set(errors "")
set(checked 0)
foreach(room IN LISTS FV_ROOM_NAMES)
  set(dir ${SOURCE_DIR}/${FV_ROOM_${room}_DIR})
  file(GLOB_RECURSE files ${dir}/*.hpp ${dir}/*.h ${dir}/*.cpp ${dir}/*.cuh ${dir}/*.cu ${dir}/*.in)
  foreach(file IN LISTS files)
    file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" inc "${line}")
      math(EXPR checked "${checked} + 1")
      # the included file's room: the one whose folder is the longest prefix of the include
      set(owner "")
      set(best 0)
      foreach(other IN LISTS FV_ROOM_NAMES)
        set(prefix "${FV_ROOM_${other}_DIR}/")
        string(LENGTH "${prefix}" n)
        string(SUBSTRING "${inc}" 0 ${n} head)
        if(head STREQUAL prefix AND n GREATER best)
          set(owner ${other})
          set(best ${n})
        endif()
      endforeach()
      if(owner AND NOT owner IN_LIST FV_ROOM_${room}_SEES)
        file(RELATIVE_PATH rel ${SOURCE_DIR} ${file})
        string(REPLACE ";" " " sees "${FV_ROOM_${room}_SEES}")
        string(APPEND errors "  ${rel}: #include \"${inc}\" (room ${owner}; room ${room} "
                             "may include from: ${sees})\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(errors)
  message(FATAL_ERROR "includes against the rooms' layering (cmake/FvRooms.cmake):\n${errors}")
endif()
message(STATUS "layering: ${checked} includes of the rooms' files follow cmake/FvRooms.cmake")
