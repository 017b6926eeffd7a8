# Compile options shared by every fvkit target: fv_options (interface library).
add_library(fv_options INTERFACE)
target_compile_options(fv_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter>)
if(FV_WERROR)
  target_compile_options(fv_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                              $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
endif()
# Fused multiply-add contraction changes the rounding of a*b+c: off by default so that the GPU
# reproduces the CPU backend's arithmetic (residual histories agree to ~1e-14 instead of
# drifting apart through limiter switches). Memory-bound kernels lose nothing measurable.
option(FV_CUDA_FMAD "Let nvcc contract a*b+c into fused multiply-adds" OFF)
if(NOT FV_CUDA_FMAD)
  target_compile_options(fv_options INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
endif()
target_compile_options(fv_options INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra,-Wno-unused-parameter>)
if(FV_SANITIZE)
  target_compile_options(fv_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined>)
  target_link_options(fv_options INTERFACE -fsanitize=address,undefined)
endif()
# Compile options for the sources of executables only (the programs' entry points and the test
# programs; not the libraries, whose code the tests exercise): the sanitizer preset compiles
# them at -O0 while the libraries keep -O1, the ci preset at -O1 while the libraries keep the
# release build's -O3: their compile time falls by about half (bench/results/ci_times_vm/).
# CI's 2 cores build three configurations: these keep scripts/test.sh within its budget.
set(FV_PROGRAM_COMPILE_OPTIONS "" CACHE STRING
    "Extra compile options for the executables' own sources (e.g. -O0), not the libraries")
function(fv_program_options target)
  if(FV_PROGRAM_COMPILE_OPTIONS)
    target_compile_options(${target} PRIVATE
                           $<$<COMPILE_LANGUAGE:CXX>:${FV_PROGRAM_COMPILE_OPTIONS}>)
  endif()
endfunction()
# Benchmark programs that no test runs (tests/*: bench_prep, bench_zone_file, halo_bench,
# lusgs_bench): off in the sanitizer preset, which has nothing to measure.
option(FV_BUILD_BENCH_PROGRAMS "Build the benchmark programs under tests/ (not tests)" ON)
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  target_compile_definitions(fv_options INTERFACE FV_DEBUG=1)
endif()
