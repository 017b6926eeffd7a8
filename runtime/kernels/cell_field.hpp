#pragma once
/// \file cell_field.hpp
/// fv::kernels::CellField<N>: the structure-of-arrays layout of an N-component field over
/// `stride` entities (cells: nTotalCells, nodes: nNodes, faces: nFaces), component k of entity
/// i at data[k * stride + i]. Kernels take the width N from the model (Model::kNumVars, or
/// 3 * kNumVars for gradients), so that no kernel writes the number of variables itself.
/// A non-owning view of device memory; trivially copyable (captured by value in kernels).
#include "common/types.hpp"

namespace fv::kernels {

template <int N, class T = real_t>
struct CellField {
  static constexpr int kWidth = N;
  T* data = nullptr;
  idx_t stride = 0;

  FV_HOST_DEVICE FV_FORCEINLINE T& operator()(int k, idx_t i) const { return data[k * stride + i]; }
  /// The N components of entity i into q.
  FV_HOST_DEVICE FV_FORCEINLINE void load(idx_t i, real_t (&q)[N]) const {
    for (int k = 0; k < N; ++k)
      q[k] = data[k * stride + i];
  }
  /// q into the N components of entity i.
  FV_HOST_DEVICE FV_FORCEINLINE void store(idx_t i, const real_t (&q)[N]) const {
    for (int k = 0; k < N; ++k)
      data[k * stride + i] = q[k];
  }
};

/// A read-only view.
template <int N>
using ConstCellField = CellField<N, const real_t>;

} // namespace fv::kernels
