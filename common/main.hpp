#pragma once
/// \file main.hpp
/// run_main(): the one place where a program catches fv::Error and turns it into an exit code.
#include <functional>

namespace fv {

/// Runs body() and returns its exit code. fv::Error becomes one line
/// "<program>: error: <message>" on stderr and its exit code (1 runtime, 2 usage); any other
/// std::exception is reported the same way with exit code 1.
int run_main(const char* program, const std::function<int()>& body);

} // namespace fv
