# The rooms of fvkit: one library fv_<room> (alias fv::<room>) per room, built from the .cpp
# files under the room's folder (without the programs' *_main.cpp; a room without sources is an
# INTERFACE library), linking the rooms it depends on. This table is the one place that says
# which room may include from which: a room sees the headers of its own folder and of the rooms
# it links (transitively), nothing else. Each room's public include directory is
# ${PROJECT_BINARY_DIR}/rooms/<room>/, which holds only a symbolic link to the room's folder at
# its include path (rooms/kernels/runtime/kernels -> runtime/kernels), and the project root is
# on no library's include path: `#include "runtime/solver/..."` in a kernels file fails with
# "No such file or directory" (tests/layering checks that it does, and reads every room's
# includes against this table: also those of headers no source of their own room includes,
# which the compile checks only in the includer's room). Generated headers go to
# ${PROJECT_BINARY_DIR}/generated/<room>/ (fv_add_room_generated_dir). Tests, examples and
# programs on top of the libraries may put the project root on their own include path.
#
# A room names only rooms above it in the table (checked below: no cycles); lowest first.
#   room       folder              depends on (may include from)
set(FV_ROOMS
  "common    : common            : "
  "formats   : formats           : common"
  "prep      : prep              : formats common"
  "backend   : runtime/backend   : common"
  "physics   : runtime/physics   : common"
  "kernels   : runtime/kernels   : backend physics common"
  "config    : runtime/config    : physics kernels backend common"
  "parallel  : runtime/parallel  : backend common formats"
  "solver    : runtime/solver    : config kernels parallel physics backend common formats"
  "output    : runtime/output    : solver parallel config kernels physics backend common formats"
  "campaign  : runtime/campaign  : output solver parallel config kernels physics backend common formats"
  "bench     : bench/fvbench     : solver kernels physics backend common formats"
)

set(FV_ROOM_NAMES "")
foreach(row IN LISTS FV_ROOMS)
  if(NOT row MATCHES "^ *([a-z_]+) *: *([A-Za-z0-9_/]+) *:(.*)$")
    message(FATAL_ERROR "fvkit: bad row of FV_ROOMS (cmake/FvRooms.cmake): '${row}'")
  endif()
  set(room ${CMAKE_MATCH_1})
  set(FV_ROOM_${room}_DIR ${CMAKE_MATCH_2})
  string(STRIP "${CMAKE_MATCH_3}" deps)
  separate_arguments(deps UNIX_COMMAND "${deps}")
  foreach(dep IN LISTS deps)
    if(NOT dep IN_LIST FV_ROOM_NAMES)
      message(FATAL_ERROR "fvkit: room '${room}' depends on '${dep}', which is not a room "
                          "above it in FV_ROOMS (cmake/FvRooms.cmake)")
    endif()
  endforeach()
  set(FV_ROOM_${room}_DEPS ${deps})
  # FV_ROOM_<room>_SEES: the rooms whose headers it sees, itself and its dependencies' closure
  set(sees ${room})
  foreach(dep IN LISTS deps)
    list(APPEND sees ${FV_ROOM_${dep}_SEES})
  endforeach()
  list(REMOVE_DUPLICATES sees)
  set(FV_ROOM_${room}_SEES ${sees})
  list(APPEND FV_ROOM_NAMES ${room})
endforeach()
unset(sees)
unset(room)
unset(deps)

# fv_add_rooms(FOLDER): adds, in table order, every room whose folder is FOLDER or lies under
# it; sets FV_ROOMS_ADDED (the room names) in the caller's scope. Call it from FOLDER's
# CMakeLists.txt, so that source-file properties set there (LANGUAGE CUDA) reach the targets.
function(fv_add_rooms folder)
  set(added "")
  foreach(room IN LISTS FV_ROOM_NAMES)
    set(dir ${FV_ROOM_${room}_DIR})
    if(dir STREQUAL folder OR dir MATCHES "^${folder}/")
      fv_add_room(${room})
      list(APPEND added ${room})
    endif()
  endforeach()
  set(FV_ROOMS_ADDED ${added} PARENT_SCOPE)
endfunction()

# fv_add_room(ROOM): the library fv_ROOM of one room of the table.
function(fv_add_room room)
  if(NOT room IN_LIST FV_ROOM_NAMES)
    message(FATAL_ERROR "fvkit: no room '${room}' in FV_ROOMS (cmake/FvRooms.cmake)")
  endif()
  set(dir ${FV_ROOM_${room}_DIR})
  # the room's include directory: one symbolic link to its folder, at the folder's include path
  set(inc ${PROJECT_BINARY_DIR}/rooms/${room})
  get_filename_component(parent ${inc}/${dir} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${inc}/${dir} SYMBOLIC)
  # a room's folder may not exist yet (runtime/output): the glob finds its first file later
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cpp)
  list(FILTER srcs EXCLUDE REGEX ".*_main\\.cpp$")
  set(deps "")
  foreach(dep IN LISTS FV_ROOM_${room}_DEPS)
    list(APPEND deps fv_${dep})
  endforeach()
  if(srcs)
    add_library(fv_${room} STATIC ${srcs})
    set_target_properties(fv_${room} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    set(scope PUBLIC)
  else()
    add_library(fv_${room} INTERFACE)
    set(scope INTERFACE)
  endif()
  add_library(fv::${room} ALIAS fv_${room})
  target_include_directories(fv_${room} ${scope} ${inc})
  target_link_libraries(fv_${room} ${scope} fv_options ${deps})
endfunction()

# fv_add_room_generated_dir(ROOM VAR): ${PROJECT_BINARY_DIR}/generated/ROOM, the include
# directory of ROOM's generated headers (configure_file into VAR/<folder>/...), on its public
# include path; VAR is set in the caller's scope.
function(fv_add_room_generated_dir room var)
  set(gen ${PROJECT_BINARY_DIR}/generated/${room})
  file(MAKE_DIRECTORY ${gen})
  get_target_property(type fv_${room} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(fv_${room} INTERFACE ${gen})
  else()
    target_include_directories(fv_${room} PUBLIC ${gen})
  endif()
  set(${var} ${gen} PARENT_SCOPE)
endfunction()

# fv_cuda_sources(TARGET...): with the CUDA backend, nvcc compiles the targets' .cpp files
# (LANGUAGE CUDA, so that fv::forall launches kernels), whole-program (no separable
# compilation). Call it from the directory that created the targets.
function(fv_cuda_sources)
  if(NOT FV_CUDA)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      continue()
    endif()
    get_target_property(srcs ${target} SOURCES)
    list(FILTER srcs INCLUDE REGEX "\\.cpp$")
    set_source_files_properties(${srcs} PROPERTIES LANGUAGE CUDA)
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endforeach()
endfunction()
