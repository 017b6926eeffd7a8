#include "common/csr.hpp"
#include "common/error.hpp"

#include <gtest/gtest.h>

using fv::Array;
using fv::Csr;
using fv::idx_t;

namespace {
Csr make(std::vector<idx_t> off, std::vector<idx_t> idx) {
  return Csr(Array<idx_t>(std::move(off)), Array<idx_t>(std::move(idx)));
}
} // namespace

TEST(Csr, RowsAndAccess) {
  const Csr c = make({0, 2, 2, 5}, {4, 1, 0, 3, 2});
  EXPECT_EQ(c.rows(), 3);
  EXPECT_EQ(c.nnz(), 5);
  EXPECT_EQ(c.size(0), 2);
  EXPECT_EQ(c.size(1), 0);
  EXPECT_EQ(c.size(2), 3);
  EXPECT_EQ(c.row(2)[1], 3);
  EXPECT_EQ(c.max_row_size(), 3);
  EXPECT_NO_THROW(c.check("c", 5));
}

TEST(Csr, UniformRowSizeOnlyWhenEveryRowHasIt) {
  EXPECT_EQ(make({0, 2, 2, 5}, {4, 1, 0, 3, 2}).uniform_row_size(), 0);
  EXPECT_EQ(make({0, 3, 6}, {0, 1, 2, 2, 1, 3}).uniform_row_size(), 3);
  EXPECT_EQ(make({0, 4}, {0, 1, 2, 3}).uniform_row_size(), 4);
  EXPECT_EQ(make({0, 3, 6, 10}, {0, 1, 2, 2, 1, 3, 0, 1, 2, 3}).uniform_row_size(), 0);
  EXPECT_EQ(Csr().uniform_row_size(), 0);
}

TEST(Csr, EmptyHasZeroRows) {
  Csr c;
  EXPECT_EQ(c.rows(), 0);
  EXPECT_EQ(c.nnz(), 0);
  EXPECT_NO_THROW(c.check("empty"));
}

TEST(Csr, CheckRejectsBrokenInvariants) {
  EXPECT_THROW(make({1, 2}, {0}).check("x"), fv::Error);       // offsets[0] != 0
  EXPECT_THROW(make({0, 2, 1}, {0, 1}).check("x"), fv::Error); // decreasing offsets
  EXPECT_THROW(make({0, 2}, {0, 1, 2}).check("x"), fv::Error); // end != nnz
  EXPECT_THROW(make({0, 2}, {0, 7}).check("x", 5), fv::Error); // index out of range
  try {
    make({0, 2}, {0, 7}).check("cellFaces", 5);
    FAIL() << "expected an error";
  } catch (const fv::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cellFaces"), std::string::npos) << e.what();
  }
}

TEST(Csr, FromCountsIsPrefixSum) {
  const Csr c = Csr::from_counts({3, 0, 2});
  EXPECT_EQ(c.rows(), 3);
  EXPECT_EQ(c.offsets().to_vector(), (std::vector<idx_t>{0, 3, 3, 5}));
  EXPECT_EQ(c.nnz(), 5);
}

TEST(Csr, TransposeIsInvolution) {
  const Csr c = make({0, 2, 3, 6}, {0, 3, 1, 0, 1, 3});
  const Csr t = c.transpose(4);
  EXPECT_EQ(t.rows(), 4);
  EXPECT_EQ(t.offsets().to_vector(), (std::vector<idx_t>{0, 2, 4, 4, 6}));
  EXPECT_EQ(t.indices().to_vector(), (std::vector<idx_t>{0, 2, 1, 2, 0, 2}));
  EXPECT_TRUE(t.transpose(3) == c);
}

TEST(Csr, CopiesShareStorageCloneDoesNot) {
  Csr a = make({0, 1}, {5});
  Csr b = a;
  Csr d = a.clone();
  a.row(0)[0] = 9;
  EXPECT_EQ(b.row(0)[0], 9);
  EXPECT_EQ(d.row(0)[0], 5);
}
