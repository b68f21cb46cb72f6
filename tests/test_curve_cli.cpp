// pathlab-cli curve: Dubins, the CSC switch, Reeds-Shepp with reverse pieces, pose to point,
// and bad input (exit 2 naming the option) against a point inside the turning circle (exit 1).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "core/geometry.hpp"

namespace pl {
namespace {

using pl::test::CliRun;
using pl::test::run_cli;

TEST(CurveCli, GoalOnTheTurningCircleIsAQuarterArc) {
  const CliRun r = run_cli("curve --from 0,0,0 --to 1,1,1.5707963267948966 --radius 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "dubins");
  EXPECT_TRUE(j["found"].get<bool>());
  EXPECT_NEAR(j["length"].get<double>(), kPi / 2, 1e-12);
  EXPECT_EQ(j["word"], "RSR");
  // One piece: the right (clockwise on screen, y down) arc about (0, 1), driven forward.
  ASSERT_EQ(j["pieces"].size(), 1u);
  const auto& arc = j["pieces"][0]["arc"];
  EXPECT_NEAR(arc["center"][0].get<double>(), 0, 1e-12);
  EXPECT_NEAR(arc["center"][1].get<double>(), 1, 1e-12);
  EXPECT_NEAR(arc["sweep"].get<double>(), kPi / 2, 1e-12);
  EXPECT_FALSE(j["pieces"][0]["reverse"].get<bool>());
  EXPECT_NEAR(j["end"][0].get<double>(), 1, 1e-12);
  EXPECT_NEAR(j["end"][1].get<double>(), 1, 1e-12);
  // Every word's own length is listed; RSR's is the answer.
  EXPECT_NEAR(j["words"]["RSR"].get<double>(), kPi / 2, 1e-12);
  EXPECT_EQ(j["words"].size(), 6u);
}

TEST(CurveCli, CscSwitchAndCccWords) {
  // Close poses facing opposite ways: a CCC word beats every CSC word.
  const std::string args = "curve --from 0,0,0 --to 0.5,0.3,2.5 --radius 1 --json";
  const CliRun all = run_cli(args);
  const CliRun csc = run_cli(args + " --words csc");
  ASSERT_EQ(all.code, 0) << all.err;
  ASSERT_EQ(csc.code, 0) << csc.err;
  const auto ja = nlohmann::json::parse(all.out), jc = nlohmann::json::parse(csc.out);
  EXPECT_EQ(jc["mode"], "dubins-csc");
  const std::string wa = ja["word"], wc = jc["word"];
  EXPECT_TRUE(wa == "LRL" || wa == "RLR") << wa;
  EXPECT_EQ(wc[1], 'S');
  EXPECT_LT(ja["length"].get<double>(), jc["length"].get<double>());
  EXPECT_TRUE(ja["words"]["LSR"].is_null());  // the circles overlap: no inner tangent
}

TEST(CurveCli, ReverseGivesReedsSheppWithReversePieces) {
  const CliRun r = run_cli("curve --from 0,0,0 --to -3,0,0 --radius 1 --reverse --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "reeds-shepp");
  EXPECT_NEAR(j["length"].get<double>(), 3, 1e-12);
  EXPECT_EQ(j["word"], "S-");
  ASSERT_EQ(j["pieces"].size(), 1u);
  EXPECT_TRUE(j["pieces"][0]["reverse"].get<bool>());
  EXPECT_NEAR(j["pieces"][0]["line"][2].get<double>(), -3, 1e-12);
  EXPECT_NEAR(j["segments"][0]["length"].get<double>(), -3, 1e-12);
  // Without --reverse the same goal needs a loop.
  const CliRun d = run_cli("curve --from 0,0,0 --to -3,0,0 --radius 1 --json");
  ASSERT_EQ(d.code, 0);
  EXPECT_GT(nlohmann::json::parse(d.out)["length"].get<double>(), 3 + kPi);
}

TEST(CurveCli, TextOutput) {
  const CliRun r = run_cli("curve --from 0,0,0 --to 5,0,0 --radius 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("length  5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line"), std::string::npos);
}

TEST(CurveCli, PoseToPoint) {
  const CliRun r = run_cli("curve --from 0,0,0 --to 1,1 --radius 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "pose-to-point");
  EXPECT_NEAR(j["length"].get<double>(), kPi / 2, 1e-12);
  EXPECT_FALSE(j.contains("words"));
  // Inside the right circle (centre (0, 1)): turning right cannot reach it, exit 1 with why.
  const CliRun in = run_cli("curve --from 0,0,0 --to 0.2,1.1 --radius 1 --turn right --json");
  EXPECT_EQ(in.code, 1);
  EXPECT_NE(in.err.find("inside the right turning circle"), std::string::npos) << in.err;
  const auto ji = nlohmann::json::parse(in.out);
  EXPECT_FALSE(ji["found"].get<bool>());
  EXPECT_NE(ji["message"].get<std::string>().find("inside"), std::string::npos);
  // Turning left (or the shorter side) reaches it.
  EXPECT_EQ(run_cli("curve --from 0,0,0 --to 0.2,1.1 --radius 1 --turn left").code, 0);
  EXPECT_EQ(run_cli("curve --from 0,0,0 --to 0.2,1.1 --radius 1").code, 0);
}

TEST(CurveCli, BadInputNamesTheOption) {
  struct Case {
    const char* args;
    const char* option;
  };
  const Case cases[] = {
      {"--from 0,0,nan --to 1,1,0 --radius 1", "--from"},
      {"--from 0,0 --to 1,1,0 --radius 1", "--from"},  // no heading
      {"--from 0,0,0,0 --to 1,1,0 --radius 1", "--from"},
      {"--from a,b,c --to 1,1,0 --radius 1", "--from"},
      {"--from 0,0,0 --to 1,inf,0 --radius 1", "--to"},
      {"--from 0,0,0 --to 1 --radius 1", "--to"},
      {"--from 0,0,0 --to 1,1,0 --radius 0", "--radius"},
      {"--from 0,0,0 --to 1,1,0 --radius -2", "--radius"},
      {"--from 0,0,0 --to 1,1,0 --radius nan", "--radius"},
      {"--from 0,0,0 --to 1,1,0 --radius x", "--radius"},
      {"--from 0,0,0 --to 1e300,0,0 --radius 1e-300", "--radius"},
      {"--from 0,0,0 --to 1,1,0 --radius 1 --words ccc", "--words"},
      {"--from 0,0,0 --to 1,1 --radius 1 --words csc", "--words"},
      {"--from 0,0,0 --to 1,1 --radius 1 --reverse", "--reverse"},
      {"--from 0,0,0 --to 1,1,0 --radius 1 --turn left", "--turn"},
      {"--to 1,1,0 --radius 1", "--from"},
  };
  for (const Case& c : cases) {
    const CliRun r = run_cli(std::string("curve ") + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.option), std::string::npos) << c.args << "\n" << r.err;
  }
}

}  // namespace
}  // namespace pl
