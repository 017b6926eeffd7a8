#include "runtime/solver/block_preconditioner.hpp"
#include "runtime/solver/state_model.hpp"

#include <cstdint>
#include <limits>

#include "common/error.hpp"
#include "runtime/kernels/krylov.hpp"
#include "runtime/solver/spatial_operator.hpp"
#include "runtime/solver/sweep_groups.hpp"

#include <sstream>

namespace fv {

BlockPreconditioner::BlockPreconditioner(SpatialOperator& op, const NewtonConfig& cfg,
                                         bool keepDiagonal)
    : op_(op), nv_(op.num_vars()), kind_(cfg.preconditioner), sweeps_(cfg.sweeps),
      forward_("preconditioner forward sweep", KernelSequence::Mode::Graph),
      backward_("preconditioner backward sweep", KernelSequence::Mode::Graph),
      factor_("ilu factorisation", KernelSequence::Mode::Graph) {
  const Zone& zone = op.zone();
  const idx_t n = zone.nCells, nt = zone.nTotalCells();
  // the ILU's sweep-ordered block copies are indexed component by component in idx_t
  FV_VERIFY(static_cast<std::int64_t>(nv_) * nv_ * zone.cellFaces.nnz() <=
                std::numeric_limits<idx_t>::max(),
            "zone " << zone.zoneId << " is too large for the preconditioner's 32-bit indexing ("
                    << zone.nCells << " cells, " << zone.cellFaces.nnz() << " cell faces, " << nv_
                    << "x" << nv_ << " blocks): prepare it in more parts (fvprep --parts)");
  const bool ilu = kind_ == NewtonPreconditioner::Ilu;
  if (ilu) keepDiagonal = true;
  if (ilu || kind_ == NewtonPreconditioner::Sgs) {
    std::vector<idx_t> rank, cells, block;
    if (cfg.ordering == SweepOrdering::Blocks) {
      FV_VERIFY_USAGE(ilu, "newton_ordering = blocks needs newton_preconditioner = ilu");
      BlockSweepOrder o = block_sweep_order(zone, cfg.blockCells);
      rank = std::move(o.rank);
      block = std::move(o.block);
      cells = std::move(o.cells);
      nBlocks_ = o.nBlocks;
      nGroups_ = o.maxLevels;
      blockLevels_ = std::move(o.blockLevels);
      levelOffsets_ = std::move(o.levelOffsets);
      blockLevelsDevice_ = DeviceArray<idx_t>(blockLevels_, "preconditioner block levels");
      levelOffsetsDevice_ = DeviceArray<idx_t>(levelOffsets_, "preconditioner level offsets");
    } else {
      const bool colour = cfg.ordering == SweepOrdering::Colour;
      const Csr& g = colour ? zone.cellColours : zone.hyperplanes;
      rank = sweep_group_ranks(zone, g, colour ? "order/cellColours" : "order/hyperplanes");
      groupOffsets_.assign(g.offsets().data(), g.offsets().data() + g.offsets().size());
      cells.assign(g.indices().data(), g.indices().data() + g.indices().size());
      nGroups_ = g.rows();
      groupOffsetsDevice_ = DeviceArray<idx_t>(groupOffsets_, "preconditioner group offsets");
    }
    groupCells_ = DeviceArray<idx_t>(cells, "preconditioner group cells");
    if (ilu) build_ilu_lists(zone, cells, rank, block);
  }
  const auto blocks = static_cast<std::size_t>(n);
  const auto blockReals = static_cast<std::size_t>(nv_) * nv_; // one N x N block
  if (!ilu) Dinv_ = DeviceArray<real_t>(blockReals * blocks, "inverse diagonal blocks");
  if (keepDiagonal) D_ = DeviceArray<real_t>(blockReals * blocks, "diagonal blocks");
  off_ = DeviceArray<real_t>(blockReals * static_cast<std::size_t>(zone.cellFaces.nnz()),
                             "off-diagonal blocks");
  const auto nvec = static_cast<std::size_t>(nv_) * nt;
  b_ = DeviceArray<real_t>(nvec, "preconditioner rhs");
  x_ = DeviceArray<real_t>(nvec, "preconditioner x");
  if (kind_ == NewtonPreconditioner::Jacobi) y_ = DeviceArray<real_t>(nvec, "preconditioner x new");
  m_.Dinv = ilu ? nullptr : Dinv_.data();
  m_.D = keepDiagonal ? D_.data() : nullptr;
  m_.off = off_.data();
  assembly_.patches = op.patches();
  // the first-order Jacobian: the boundary fluxes' and the face Jacobians' fix on every wave
  assembly_.flux = op.scheme().flux.first_order().with_entropy_fix_on_all_waves();
}

BlockPreconditioner::~BlockPreconditioner() = default;

void BlockPreconditioner::build_ilu_lists(const Zone& zone, const std::vector<idx_t>& cells,
                                          const std::vector<idx_t>& rank,
                                          const std::vector<idx_t>& block) {
  const idx_t n = zone.nCells;
  const idx_t* faces = zone.cellFaces.indices().data();
  std::vector<idx_t> pos(static_cast<std::size_t>(n));
  for (idx_t i = 0; i < n; ++i)
    pos[cells[i]] = i;
  auto neighbour = [&](idx_t c, idx_t q) {
    const idx_t f = faces[q];
    return zone.cellFaceSign[q] > 0 ? zone.faceNeighbour[f] : zone.faceOwner[f];
  };
  // lower: j earlier in c's block; upper: j later in c's block, or a halo cell (with the x it
  // holds); other blocks: not coupled
  auto is_upper = [&](idx_t c, idx_t j) {
    return j >= n || ((block.empty() || block[j] == block[c]) && rank[j] > rank[c]);
  };
  auto is_lower = [&](idx_t c, idx_t j) {
    return j < n && (block.empty() || block[j] == block[c]) && rank[j] < rank[c];
  };
  // upper lists first (the lower entries point into them)
  std::vector<idx_t> upperOff(static_cast<std::size_t>(n) + 1, 0), upper, upperSlot;
  std::vector<idx_t> upperFirst(static_cast<std::size_t>(n), 0); // first upper entry of a cell
  for (idx_t i = 0; i < n; ++i) {
    const idx_t c = cells[i];
    upperFirst[c] = static_cast<idx_t>(upper.size());
    for (idx_t q = zone.cellFaces.begin(c); q < zone.cellFaces.end(c); ++q) {
      if (faces[q] < zone.nBoundaryFaces) continue;
      const idx_t j = neighbour(c, q);
      if (!is_upper(c, j)) continue;
      upper.push_back(j);
      upperSlot.push_back(q);
    }
    upperOff[i + 1] = static_cast<idx_t>(upper.size());
  }
  std::vector<idx_t> lowerOff(static_cast<std::size_t>(n) + 1, 0), lower, lowerSlot;
  for (idx_t i = 0; i < n; ++i) {
    const idx_t c = cells[i];
    for (idx_t q = zone.cellFaces.begin(c); q < zone.cellFaces.end(c); ++q) {
      if (faces[q] < zone.nBoundaryFaces) continue;
      const idx_t j = neighbour(c, q);
      if (!is_lower(c, j)) continue;
      // j's upper entry for the same face (O_jc)
      idx_t u = -1;
      for (idx_t e = upperFirst[j]; e < upperOff[pos[j] + 1]; ++e)
        if (faces[upperSlot[e]] == faces[q]) u = e;
      FV_VERIFY(u >= 0, "zone " << zone.zoneId << ": face " << faces[q] << " of cell " << c
                                << " is not in the upper list of its neighbour " << j);
      lower.insert(lower.end(), {j, pos[j], u});
      lowerSlot.push_back(q);
    }
    lowerOff[i + 1] = static_cast<idx_t>(lowerSlot.size());
  }
  lowerOffsets_ = DeviceArray<idx_t>(lowerOff, "ilu lower offsets");
  lower_ = DeviceArray<idx_t>(lower, "ilu lower neighbours");
  lowerSlot_ = DeviceArray<idx_t>(lowerSlot, "ilu lower slots");
  upperOffsets_ = DeviceArray<idx_t>(upperOff, "ilu upper offsets");
  upper_ = DeviceArray<idx_t>(upper, "ilu upper neighbours");
  upperSlot_ = DeviceArray<idx_t>(upperSlot, "ilu upper slots");
  const auto blockReals = static_cast<std::size_t>(nv_) * nv_; // one N x N block
  lowerBlk_ = DeviceArray<real_t>(blockReals * lowerSlot.size(), "ilu lower blocks");
  upperBlk_ = DeviceArray<real_t>(blockReals * upperSlot.size(), "ilu upper blocks");
  iluDinv_ =
      DeviceArray<real_t>(blockReals * static_cast<std::size_t>(n), "ilu factorised diagonal");
  ilu_.nLower = static_cast<idx_t>(lowerSlot.size());
  ilu_.nUpper = static_cast<idx_t>(upperSlot.size());
  ilu_.lowerOffsets = lowerOffsets_.data();
  ilu_.lower = lower_.data();
  ilu_.lowerSlot = lowerSlot_.data();
  ilu_.upperOffsets = upperOffsets_.data();
  ilu_.upper = upper_.data();
  ilu_.upperSlot = upperSlot_.data();
  ilu_.lowerBlk = lowerBlk_.data();
  ilu_.upperBlk = upperBlk_.data();
  ilu_.dinv = iluDinv_.data();
}

std::string BlockPreconditioner::description() const {
  std::ostringstream o;
  switch (kind_) {
  case NewtonPreconditioner::Ilu:
    o << "block ILU(0) (diagonal form) ";
    if (nBlocks_ > 0)
      o << "in " << nBlocks_ << " blocks of at most " << nGroups_
        << " levels (one launch per sweep)";
    else
      o << "over " << nGroups_ << " groups";
    o << ", " << sweeps_ << " solve(s)";
    break;
  case NewtonPreconditioner::Sgs:
    o << sweeps_ << " symmetric block Gauss-Seidel sweep(s) over " << nGroups_ << " groups";
    break;
  case NewtonPreconditioner::Jacobi:
    o << sweeps_ << " block Jacobi sweep(s)";
    break;
  case NewtonPreconditioner::None:
    o << "none";
    break;
  }
  return o.str();
}

void BlockPreconditioner::assemble(const real_t* W, const real_t* dt, real_t dtGlobal) {
  assembly_.grad = op_.gradients();
  assembly_.transport = op_.flow().transport; // the operator's current conditions
  visit_state_model(op_.flow(), [&](auto m) {
    kernels::assemble_block_jacobian<decltype(m)>(op_.view(), assembly_, W, dt, dtGlobal, m_);
  });
  if (kind_ != NewtonPreconditioner::Ilu) return;
  const ZoneView& z = op_.view();
  const idx_t* cells = groupCells_.data();
  if (nBlocks_ > 0) {
    kernels::with_field_width(nv_, [&](auto w) {
      kernels::block_ilu_factor<decltype(w)::value>(z, m_, ilu_, cells, level_schedule());
    });
    return;
  }
  const GroupSchedule sched{nGroups_, groupOffsets_.data(), groupOffsetsDevice_.data()};
  kernels::with_field_width(nv_, [&](auto w) {
    factor_.run([&] { kernels::block_ilu_factor<decltype(w)::value>(z, m_, ilu_, cells, sched); });
  });
}

LevelSchedule BlockPreconditioner::level_schedule() const {
  return {nBlocks_, blockLevels_.data(), blockLevelsDevice_.data(), levelOffsets_.data(),
          levelOffsetsDevice_.data()};
}

void BlockPreconditioner::sweep(bool forward, const real_t* b, real_t* x) {
  const ZoneView& z = op_.view();
  const idx_t* cells = groupCells_.data();
  if (nBlocks_ > 0) { // one launch: every block sweeps its levels
    kernels::with_field_width(nv_, [&](auto w) {
      kernels::block_ilu_sweep<decltype(w)::value>(z, ilu_, b, x, cells, level_schedule(), forward);
    });
    return;
  }
  // per-group launches replayed as a CUDA graph: always on the fixed vectors b_, x_
  FV_ASSERT(b == b_.data() && x == x_.data(), "group sweeps run on the fixed vectors");
  const GroupSchedule sched{nGroups_, groupOffsets_.data(), groupOffsetsDevice_.data()};
  kernels::with_field_width(nv_, [&](auto w) {
    constexpr int N = decltype(w)::value;
    (forward ? forward_ : backward_).run([&, forward] {
      if (kind_ == NewtonPreconditioner::Ilu)
        kernels::block_ilu_sweep<N>(z, ilu_, b, x, cells, sched, forward);
      else
        kernels::block_gauss_seidel<N>(z, m_, b, x, cells, sched, forward);
    });
  });
}

void BlockPreconditioner::ilu_solve(const real_t* b, real_t* x) {
  sweep(true, b, x);
  op_.exchange_cells("preconditioner x", x, nv_); // the neighbours' forward result in the halo
  sweep(false, b, x);
}

void BlockPreconditioner::apply(const real_t* b, real_t* x) {
  const ZoneView& z = op_.view();
  if (kind_ == NewtonPreconditioner::None) {
    kernels::vec_axpby(z, nv_, 1.0, b, 0.0, x);
    return;
  }
  if (kind_ == NewtonPreconditioner::Ilu && nBlocks_ > 0 && sweeps_ == 1) {
    ilu_solve(b, x); // one launch per sweep, no graph: straight from b into x
    return;
  }
  // the sweeps work on the fixed vectors b_, x_ (graph replay needs fixed pointers)
  kernels::vec_axpby(z, nv_, 1.0, b, 0.0, b_.data());
  if (kind_ == NewtonPreconditioner::Ilu) {
    ilu_solve(b_.data(), x_.data());
    if (sweeps_ > 1) {
      // Richardson: x += ILU^-1 (b - M x), with y_ = x and b_ = b - M x in turn
      if (y_.empty()) y_ = DeviceArray<real_t>(x_.size(), "preconditioner x");
      for (int s = 1; s < sweeps_; ++s) {
        kernels::vec_axpby(z, nv_, 1.0, x_.data(), 0.0, y_.data());
        op_.exchange_cells("preconditioner x", y_.data(), nv_);
        kernels::with_field_width(nv_, [&](auto w) {
          kernels::block_multiply<decltype(w)::value>(z, m_, y_.data(), x_.data());
        });
        kernels::vec_axpby(z, nv_, 1.0, b, -1.0, x_.data());
        kernels::vec_axpby(z, nv_, 1.0, x_.data(), 0.0, b_.data());
        ilu_solve(b_.data(), x_.data());
        kernels::vec_axpby(z, nv_, 1.0, y_.data(), 1.0, x_.data());
      }
    }
  } else if (kind_ == NewtonPreconditioner::Jacobi) {
    kernels::with_field_width(nv_, [&](auto w) {
      kernels::block_diagonal_solve<decltype(w)::value>(z, m_, b_.data(), x_.data());
    });
    for (int s = 1; s < sweeps_; ++s) {
      op_.exchange_cells("preconditioner x", x_.data(), nv_);
      kernels::with_field_width(nv_, [&](auto w) {
        kernels::block_jacobi<decltype(w)::value>(z, m_, b_.data(), x_.data(), y_.data());
      });
      std::swap(x_, y_);
    }
  } else {
    kernels::vec_zero(nv_, z.nTotalCells, x_.data()); // halo cells included: x = 0 everywhere
    for (int s = 0; s < sweeps_; ++s) {
      sweep(true, b_.data(), x_.data());
      op_.exchange_cells("preconditioner x", x_.data(), nv_);
      sweep(false, b_.data(), x_.data());
      if (s + 1 < sweeps_) op_.exchange_cells("preconditioner x", x_.data(), nv_);
    }
  }
  kernels::vec_axpby(z, nv_, 1.0, x_.data(), 0.0, x);
}

void BlockPreconditioner::multiply(const real_t* x, real_t* y) {
  FV_VERIFY(m_.D, "BlockPreconditioner::multiply needs the diagonal blocks (keepDiagonal)");
  const ZoneView& z = op_.view();
  kernels::vec_axpby(z, nv_, 1.0, x, 0.0, x_.data());
  op_.exchange_cells("matvec x", x_.data(), nv_);
  kernels::with_field_width(
      nv_, [&](auto w) { kernels::block_multiply<decltype(w)::value>(z, m_, x_.data(), y); });
}

} // namespace fv
