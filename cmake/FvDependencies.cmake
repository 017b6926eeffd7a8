# Finds fvkit's dependencies. Each is a Debian 12 package; a missing one fails configure with
# the package name so that `scripts/install-deps.sh` (or apt-get) fixes it.

function(fv_missing what pkg)
  message(FATAL_ERROR "fvkit: ${what} not found. Install the Debian package '${pkg}' "
                      "(scripts/install-deps.sh installs every dependency).")
endfunction()

# MPI (libopenmpi-dev, openmpi-bin)
find_package(MPI COMPONENTS C CXX)
if(NOT MPI_CXX_FOUND)
  fv_missing("MPI (C++)" "libopenmpi-dev openmpi-bin")
endif()

# HDF5 C library (libhdf5-dev): Debian installs the serial flavour under include/hdf5/serial.
set(HDF5_PREFER_PARALLEL OFF)
find_package(HDF5 COMPONENTS C QUIET)
if(NOT HDF5_FOUND)
  fv_missing("HDF5 C library" "libhdf5-dev")
endif()
if(NOT TARGET fv_hdf5)
  add_library(fv_hdf5 INTERFACE)
  target_include_directories(fv_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(fv_hdf5 INTERFACE ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
  target_compile_definitions(fv_hdf5 INTERFACE ${HDF5_C_DEFINITIONS} H5_USE_110_API)
endif()

# CGNS mid-level library (libcgns-dev): Debian ships no CMake config, so find it by hand.
find_path(CGNS_INCLUDE_DIR cgnslib.h PATH_SUFFIXES cgns)
find_library(CGNS_LIBRARY NAMES cgns)
if(NOT CGNS_INCLUDE_DIR OR NOT CGNS_LIBRARY)
  fv_missing("CGNS library (cgnslib.h, libcgns)" "libcgns-dev")
endif()
if(NOT TARGET fv_cgns)
  add_library(fv_cgns INTERFACE)
  target_include_directories(fv_cgns SYSTEM INTERFACE ${CGNS_INCLUDE_DIR})
  target_link_libraries(fv_cgns INTERFACE ${CGNS_LIBRARY} fv_hdf5)
endif()

# METIS (libmetis-dev)
find_path(METIS_INCLUDE_DIR metis.h)
find_library(METIS_LIBRARY NAMES metis)
if(NOT METIS_INCLUDE_DIR OR NOT METIS_LIBRARY)
  fv_missing("METIS (metis.h, libmetis)" "libmetis-dev")
endif()
if(NOT TARGET fv_metis)
  add_library(fv_metis INTERFACE)
  target_include_directories(fv_metis SYSTEM INTERFACE ${METIS_INCLUDE_DIR})
  target_link_libraries(fv_metis INTERFACE ${METIS_LIBRARY})
endif()

# PT-Scotch (libptscotch-dev): the distributed partitioner of `mpirun -np N fvprep`
# (prep/partition_distributed.hpp), through its native ptscotch.h interface. The 32-bit flavour
# (include/scotch-int32, lib/<arch>/scotch-int32), so that its SCOTCH_Num matches fvkit's idx_t;
# the unsuffixed default of Debian 12 is 32-bit too and is the fallback. libptscotch holds the
# whole of Scotch; libptscotcherr prints Scotch's errors and returns.
find_path(PTSCOTCH_INCLUDE_DIR ptscotch.h PATH_SUFFIXES scotch-int32 scotch)
find_library(PTSCOTCH_LIBRARY NAMES ptscotch PATH_SUFFIXES scotch-int32)
find_library(PTSCOTCH_ERR_LIBRARY NAMES ptscotcherr PATH_SUFFIXES scotch-int32)
if(NOT PTSCOTCH_INCLUDE_DIR OR NOT PTSCOTCH_LIBRARY OR NOT PTSCOTCH_ERR_LIBRARY)
  fv_missing("PT-Scotch" "libptscotch-dev")
endif()
if(NOT TARGET fv_ptscotch)
  add_library(fv_ptscotch INTERFACE)
  target_include_directories(fv_ptscotch SYSTEM INTERFACE ${PTSCOTCH_INCLUDE_DIR})
  target_link_libraries(fv_ptscotch INTERFACE ${PTSCOTCH_LIBRARY} ${PTSCOTCH_ERR_LIBRARY}
                                              MPI::MPI_CXX)
endif()

# Boost.Graph (libboost-graph-dev): header-only parts only (cuthill_mckee_ordering).
find_path(BOOST_GRAPH_INCLUDE_DIR boost/graph/cuthill_mckee_ordering.hpp)
if(NOT BOOST_GRAPH_INCLUDE_DIR)
  fv_missing("Boost.Graph (boost/graph/cuthill_mckee_ordering.hpp)" "libboost-graph-dev")
endif()
if(NOT TARGET fv_boost_graph)
  add_library(fv_boost_graph INTERFACE)
  target_include_directories(fv_boost_graph SYSTEM INTERFACE ${BOOST_GRAPH_INCLUDE_DIR})
endif()

# CLI11 (libcli11-dev)
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp)
  if(NOT CLI11_INCLUDE_DIR)
    fv_missing("CLI11 (CLI/CLI.hpp)" "libcli11-dev")
  endif()
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()

# GoogleTest (libgtest-dev), only for the test suite.
if(FV_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(NOT GTest_FOUND)
    find_package(GTest QUIET)
  endif()
  if(NOT GTest_FOUND)
    fv_missing("GoogleTest" "libgtest-dev")
  endif()
endif()

# OpenMP (part of GCC; the CPU backend's threads).
set(FV_OPENMP OFF)
if(FV_ENABLE_OPENMP)
  find_package(OpenMP COMPONENTS CXX)
  if(OpenMP_CXX_FOUND)
    set(FV_OPENMP ON)
  else()
    message(WARNING "fvkit: OpenMP not found; the CPU backend runs single-threaded")
  endif()
endif()
