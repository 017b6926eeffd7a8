#include "common/array.hpp"

#include <gtest/gtest.h>

#include <memory>

TEST(Array, OwnsVectorWithoutCopy) {
  std::vector<double> v{1.0, 2.0, 3.0};
  const double* p = v.data();
  fv::Array<double> a(std::move(v));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a.data(), p);
  EXPECT_FALSE(a.is_view());
  EXPECT_EQ(a.bytes(), 3 * sizeof(double));
}

TEST(Array, ViewKeepsOwnerAlive) {
  auto owner = std::make_shared<std::vector<int>>(std::vector<int>{7, 8, 9});
  std::weak_ptr<std::vector<int>> weak = owner;
  fv::Array<int> view = fv::Array<int>::view(owner->data(), owner->size(), owner);
  owner.reset();
  ASSERT_FALSE(weak.expired());
  EXPECT_TRUE(view.is_view());
  const fv::Array<int>& readonly = view; // views are read through const access
  EXPECT_EQ(readonly[2], 9);
  view = fv::Array<int>();
  EXPECT_TRUE(weak.expired());
}

TEST(Array, CloneIsDeep) {
  fv::Array<int> a{1, 2};
  fv::Array<int> b = a.clone();
  a[0] = 5;
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{5, 2}));
}
