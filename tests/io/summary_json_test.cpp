#include "tribo/io/summary_json.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>

#include "tribo/io/atomic_file.hpp"

namespace fs = std::filesystem;
using tribo::io::json_quote;
using tribo::io::JsonObject;

TEST(SummaryJson, ObjectKeepsInsertionOrderAndReplacesRepeatedKeys) {
  JsonObject o;
  o.set("steps", 12).set("exit", "completed").set("steps", 13);
  EXPECT_EQ(o.dump(0), R"({"steps":13,"exit":"completed"})");
}

TEST(SummaryJson, IndentedLayoutOfNestedObjectsAndArrays) {
  JsonObject errors;
  errors.set("energy", 0.5).set("momentum", std::vector<double>{1, -2});
  JsonObject o;
  o.set("ok", true).set("conservation", errors).set("names", std::vector<std::string>{"a", "b"});
  o.set_null("missing").set("empty", JsonObject{});
  EXPECT_EQ(o.dump(2),
            "{\n"
            "  \"ok\": true,\n"
            "  \"conservation\": {\n"
            "    \"energy\": 0.5,\n"
            "    \"momentum\": [1, -2]\n"
            "  },\n"
            "  \"names\": [\"a\", \"b\"],\n"
            "  \"missing\": null,\n"
            "  \"empty\": {}\n"
            "}");
}

TEST(SummaryJson, StringsAreEscapedPerRfc8259) {
  EXPECT_EQ(json_quote("plain"), "\"plain\"");
  EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(json_quote("line\nnext\ttab\r"), R"("line\nnext\ttab\r")");
  EXPECT_EQ(json_quote(std::string("\x01\x1f", 2)), R"("\u0001\u001f")");
  EXPECT_EQ(json_quote("µm"), "\"µm\"");  // UTF-8 passes through unchanged
}

TEST(SummaryJson, NumbersReadBackToTheSameDouble) {
  for (double v : {0.1 + 0.2, 1.0 / 3.0, 1e-300, 6.02214076e23, -0.0, 2.0}) {
    JsonObject o;
    o.set("v", v);
    const std::string text = o.dump(0);  // {"v":...}
    const std::string number = text.substr(5, text.size() - 6);
    EXPECT_EQ(std::strtod(number.c_str(), nullptr), v) << text;
  }
  JsonObject big;
  big.set("steps", 9007199254740993LL);  // 2^53 + 1: exact as an integer, not as a double
  EXPECT_EQ(big.dump(0), R"({"steps":9007199254740993})");
}

TEST(SummaryJson, NonFiniteNumbersBecomeNull) {
  JsonObject o;
  o.set("nan", std::numeric_limits<double>::quiet_NaN())
      .set("list", std::vector<double>{1.0, std::numeric_limits<double>::infinity()});
  EXPECT_EQ(o.dump(0), R"({"nan":null,"list":[1,null]})");
}

// A real JSON parser (python's json module) accepts the file and sees the values.
TEST(SummaryJson, WrittenFileParsesWithPythonJson) {
  const fs::path file =
      fs::temp_directory_path() / ("tribo_summary_" + std::to_string(::getpid()) + ".json");
  JsonObject conservation;
  conservation.set("energy_relative", 1.5e-6);
  JsonObject o;
  o.set("steps", 4000L)
      .set("wall_time_s", 1.25)
      .set("exit_reason", "end time \"reached\"\n")
      .set("conservation", conservation);
  tribo::io::write_json_atomically(file, o);
  const std::string text = tribo::io::read_file(file);
  EXPECT_EQ(text.back(), '\n');
  const std::string command =
      "/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
      "sys.exit(0 if d[\"steps\"] == 4000 and d[\"wall_time_s\"] == 1.25 and "
      "d[\"exit_reason\"] == \"end time \\\"reached\\\"\\n\" and "
      "d[\"conservation\"][\"energy_relative\"] == 1.5e-6 else 1)' " +
      file.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << text;
  fs::remove(file);
}
