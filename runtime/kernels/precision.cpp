// Rounding of FP64 device arrays to FP32 ([scheme] precision = mixed: DeviceZone's FP32 copies
// of the geometry the reconstruction kernels read).
#include "runtime/backend/forall.hpp"
#include "runtime/kernels/kernels.hpp"

#include <limits>

namespace fv::kernels {

void round_to_single(std::size_t n, const real_t* in, float* out) {
  FV_VERIFY(n <= static_cast<std::size_t>(std::numeric_limits<idx_t>::max()),
            "round_to_single: " << n << " values exceed the kernels' 32-bit indexing");
  forall("round_to_single", static_cast<idx_t>(n),
         [=] FV_HOST_DEVICE(idx_t i) { out[i] = static_cast<float>(in[i]); });
}

} // namespace fv::kernels
