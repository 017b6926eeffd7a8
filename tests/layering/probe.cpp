// The layering probe (tests/layering/CMakeLists.txt): compiled with the include set of the
// kernels room only (runtime/kernels and the rooms it depends on: backend, physics, common).
// As it is, it includes a header of each of those rooms and must compile (the positive
// control); with FV_LAYERING_PROBE_UPWARD it also includes a header of the solver room, a room
// above kernels, which must fail with "No such file or directory".
#include "common/types.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/kernels/kernels.hpp"
#include "runtime/physics/model.hpp"
#ifdef FV_LAYERING_PROBE_UPWARD
#include "runtime/solver/spatial_operator.hpp"
#endif

int fv_layering_probe() { return static_cast<int>(sizeof(fv::idx_t)); }
