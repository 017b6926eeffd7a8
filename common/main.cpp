#include "common/main.hpp"

#include "common/error.hpp"
#include "common/log.hpp"

#include <cstdio>
#include <exception>
#include <new>

namespace fv {

int run_main(const char* program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    log::end_progress();
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    log::end_progress();
    std::fprintf(stderr, "%s: error: out of memory\n", program);
    return 1;
  } catch (const std::exception& e) {
    log::end_progress();
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return 1;
  }
}

} // namespace fv
