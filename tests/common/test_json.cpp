#include "common/json.hpp"

#include <gtest/gtest.h>

TEST(Json, QuotesAndEscapes) {
  EXPECT_EQ(fv::json_quote("wall"), "\"wall\"");
  EXPECT_EQ(fv::json_quote("a \"b\"\\c"), "\"a \\\"b\\\"\\\\c\"");
  EXPECT_EQ(fv::json_quote("x\ny\tz"), "\"x\\ny\\tz\"");
  EXPECT_EQ(fv::json_quote(std::string(1, '\x01')), "\"\\u0001\"");
}
