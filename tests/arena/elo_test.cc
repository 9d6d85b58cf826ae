// Tests for the maximum-likelihood Elo fit: known ratings, intervals and coverage, the draw prior, anchors, bad input, agreement with the ranking fit.
#include "arena/elo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

constexpr double kEloPerNat = 400.0 / 2.302585092994046;  // 400 / ln 10

double expected_score(double ra, double rb) { return 1.0 / (1.0 + std::pow(10.0, (rb - ra) / 400.0)); }

// Every pair of players meets `games` times and scores exactly its expected result.
std::vector<PairResult> exact_results(const std::vector<double>& ratings, double games) {
  std::vector<PairResult> out;
  for (int a = 0; a < static_cast<int>(ratings.size()); ++a)
    for (int b = a + 1; b < static_cast<int>(ratings.size()); ++b) {
      const double p = expected_score(ratings[a], ratings[b]);
      out.push_back({a, b, games * p, 0.0, games * (1 - p)});
    }
  return out;
}

TEST(Elo, ExpectedResultsGiveBackTheTrueRatings) {
  const std::vector<double> truth = {0, 200, 400};
  const EloFit fit = fit_elo(3, exact_results(truth, 1000), 0, 0.0);
  ASSERT_EQ(fit.elo.size(), 3u);
  for (int p = 0; p < 3; ++p) EXPECT_NEAR(fit.elo[p], truth[p], 1e-6) << p;
  EXPECT_GT(fit.iterations, 1);
  // Unequal numbers of games per pair and pairs listed either way round.
  std::vector<PairResult> mixed;
  const std::vector<double> other = {0, -150, 320, 35};
  int games = 100;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      if (a == b || (a + b) % 2 == 0) continue;
      const double p = expected_score(other[a], other[b]);
      mixed.push_back({a, b, games * p, 0.0, games * (1 - p)});
      games += 37;
    }
  const EloFit fit2 = fit_elo(4, mixed, 0, 0.0);
  for (int p = 0; p < 4; ++p) EXPECT_NEAR(fit2.elo[p], other[p], 1e-6) << p;
}

TEST(Elo, DrawsCountAsHalfAWinAndHalfALoss) {
  const std::vector<double> truth = {0, 200, 400};
  std::vector<PairResult> with_draws = exact_results(truth, 1000);
  for (PairResult& r : with_draws) {
    // Turn 50 wins and 50 losses into 100 draws: the same score over the same games.
    r.wins -= 50;
    r.losses -= 50;
    r.draws = 100;
  }
  const EloFit a = fit_elo(3, exact_results(truth, 1000), 0, 0.0);
  const EloFit b = fit_elo(3, with_draws, 0, 0.0);
  for (int p = 0; p < 3; ++p) {
    EXPECT_NEAR(b.elo[p], truth[p], 1e-6);
    EXPECT_NEAR(b.standard_error[p], a.standard_error[p], 1e-9);
  }
}

TEST(Elo, TwoPlayerStandardErrorIsTheInverseFisherInformation) {
  // One free rating: information N·p·(1−p) per natural-log unit squared.
  for (double diff : {0.0, 100.0, 350.0}) {
    const double n = 400;
    const double p = expected_score(diff, 0);
    const EloFit fit = fit_elo(2, {{0, 1, n * p, 0, n * (1 - p)}}, 0, 0.0);
    const double se = kEloPerNat / std::sqrt(n * p * (1 - p));
    EXPECT_NEAR(fit.elo[1], -diff, 1e-6);
    EXPECT_EQ(fit.standard_error[0], 0.0);
    EXPECT_NEAR(fit.standard_error[1], se, 1e-6 * se);
    EXPECT_NEAR(fit.low[1], -diff - 1.96 * se, 1e-6);
    EXPECT_NEAR(fit.high[1], -diff + 1.96 * se, 1e-6);
  }
}

TEST(Elo, FourTimesTheGamesHalvesTheInterval) {
  const std::vector<double> truth = {0, 200, 400};
  const EloFit few = fit_elo(3, exact_results(truth, 250), 0, 0.0);
  const EloFit many = fit_elo(3, exact_results(truth, 1000), 0, 0.0);
  for (int p = 1; p < 3; ++p) {
    EXPECT_GT(few.standard_error[p], 0);
    EXPECT_NEAR(many.standard_error[p] / few.standard_error[p], 0.5, 1e-6) << p;
    EXPECT_NEAR((many.high[p] - many.low[p]) / (few.high[p] - few.low[p]), 0.5, 1e-6) << p;
  }
}

TEST(Elo, SampledResultsCoverTheTruthAboutNinetyFivePercentOfTheTime) {
  const std::vector<double> truth = {0, 200, 400};
  Rng rng(2024);
  auto sample = [&](int games) {
    std::vector<PairResult> out;
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b) {
        const double p = expected_score(truth[a], truth[b]);
        PairResult r{a, b, 0, 0, 0};
        for (int g = 0; g < games; ++g) (rng.uniform() < p ? r.wins : r.losses) += 1;
        out.push_back(r);
      }
    return out;
  };
  // One sample: the truth lies inside each interval.
  const EloFit fit = fit_elo(3, sample(400), 0, 0.0);
  for (int p = 1; p < 3; ++p) {
    EXPECT_LE(fit.low[p], truth[p]) << p;
    EXPECT_GE(fit.high[p], truth[p]) << p;
  }
  // Many samples: coverage near 95% (400 intervals, so ±0.011 is one standard error).
  int covered = 0, total = 0;
  for (int rep = 0; rep < 200; ++rep) {
    const EloFit f = fit_elo(3, sample(300), 0, 0.0);
    for (int p = 1; p < 3; ++p) {
      covered += f.low[p] <= truth[p] && truth[p] <= f.high[p];
      ++total;
    }
  }
  const double coverage = static_cast<double>(covered) / total;
  EXPECT_GT(coverage, 0.91);
  EXPECT_LT(coverage, 0.99);
}

TEST(Elo, APlayerWhoWonEveryGameGetsAFiniteRatingWithTheDrawPrior) {
  // 10 wins out of 10, plus one virtual draw: score 10.5 of 11, so the difference is
  // 400·log10(10.5 / 0.5) = 400·log10(21).
  const std::vector<PairResult> results = {{0, 1, 10, 0, 0}};
  const EloFit fit = fit_elo(2, results, 0, 1.0);
  ASSERT_TRUE(std::isfinite(fit.elo[1]));
  EXPECT_NEAR(fit.elo[1], -400 * std::log10(21.0), 1e-6);
  EXPECT_TRUE(std::isfinite(fit.standard_error[1]));
  EXPECT_GT(fit.standard_error[1], 0);
  // Without the prior the maximum likelihood runs away.
  const EloFit plain = fit_elo(2, results, 0, 0.0);
  EXPECT_LT(plain.elo[1], -3000);
  // The prior is added only to pairs that played: a pair with no games adds nothing.
  const EloFit with_empty = fit_elo(2, {{0, 1, 10, 0, 0}, {1, 0, 0, 0, 0}}, 0, 1.0);
  EXPECT_NEAR(with_empty.elo[1], fit.elo[1], 1e-9);
}

TEST(Elo, TheAnchorIsRatedZeroAndDifferencesDoNotDependOnIt) {
  const std::vector<double> truth = {0, 200, 400};
  const auto results = exact_results(truth, 500);
  const EloFit by0 = fit_elo(3, results, 0, 1.0);
  for (int anchor = 0; anchor < 3; ++anchor) {
    const EloFit fit = fit_elo(3, results, anchor, 1.0);
    EXPECT_EQ(fit.elo[anchor], 0.0);
    EXPECT_EQ(fit.standard_error[anchor], 0.0);
    EXPECT_EQ(fit.low[anchor], 0.0);
    EXPECT_EQ(fit.high[anchor], 0.0);
    for (int p = 0; p < 3; ++p) EXPECT_NEAR(fit.elo[p] - fit.elo[anchor], by0.elo[p] - by0.elo[anchor], 1e-6);
  }
  // One player alone: nothing to iterate, and with no game no rating, not even the anchor's 0.
  const EloFit alone = fit_elo(1, {}, 0, 1.0);
  EXPECT_EQ(alone.rated, std::vector<bool>{false});
  EXPECT_TRUE(std::isnan(alone.elo[0]));
  EXPECT_EQ(alone.iterations, 0);
}

TEST(Elo, TwoPlayerGamesRatedAsRankingsGiveTheSameFit) {
  // Random two-player games with draws among four players, rated game by game as rankings
  // and as pair counts (listed either way round): the same ratings and intervals.
  const std::vector<double> truth = {0, 150, -80, 260};
  Rng rng(31);
  for (double prior : {0.0, 1.0}) {
    std::vector<Ranking> rankings;
    std::vector<PairResult> pairs;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        if (a != b) pairs.push_back({a, b, 0, 0, 0});
    for (int g = 0; g < 600; ++g) {
      const int a = static_cast<int>(rng.below(4));
      const int b = (a + 1 + static_cast<int>(rng.below(3))) % 4;
      const double p = expected_score(truth[a], truth[b]);
      const double u = rng.uniform();
      // A draw one game in five, taken evenly from wins and losses.
      const double ra = u < p - 0.1 ? 1 : u < p + 0.1 ? 0 : -1;
      const std::vector<int> seats = {a, b};
      rankings.push_back(ranking_from_returns(seats, std::vector<double>{ra, -ra}));
      PairResult& r = pairs[a * 3 + (b < a ? b : b - 1)];
      (ra > 0 ? r.wins : ra < 0 ? r.losses : r.draws) += 1;
    }
    const EloFit by_pairs = fit_elo(4, pairs, 2, prior);
    const EloFit by_rankings = fit_rankings(4, rankings, 2, prior);
    for (int p = 0; p < 4; ++p) {
      EXPECT_NEAR(by_rankings.elo[p], by_pairs.elo[p], 1e-8) << p;
      EXPECT_NEAR(by_rankings.standard_error[p], by_pairs.standard_error[p], 1e-8) << p;
    }
    EXPECT_NEAR(by_pairs.elo[3] - by_pairs.elo[0], 260, 3 * by_pairs.standard_error[3]);
  }
}

TEST(Elo, BadInputIsRejectedWithTheReason) {
  EXPECT_EQ(error_of([] { fit_elo(0, {}); }), "fit_elo: need at least one player");
  EXPECT_EQ(error_of([] { fit_elo(3, {}, 3); }), "fit_elo: anchor 3 is not a player");
  EXPECT_EQ(error_of([] { fit_elo(3, {}, -1); }), "fit_elo: anchor -1 is not a player");
  EXPECT_EQ(error_of([] { fit_elo(3, {{1, 1, 1, 0, 0}}); }), "fit_elo: bad pair 1 vs 1");
  EXPECT_EQ(error_of([] { fit_elo(3, {{0, 3, 1, 0, 0}}); }), "fit_elo: bad pair 0 vs 3");
  EXPECT_EQ(error_of([] { fit_elo(3, {{-1, 0, 1, 0, 0}}); }), "fit_elo: bad pair -1 vs 0");
  const std::string bad_count = "fit_elo: result counts must be finite and 0 or more";
  EXPECT_EQ(error_of([] { fit_elo(2, {{0, 1, 1, -1, 0}}); }), bad_count);
  EXPECT_EQ(error_of([] { fit_elo(2, {{0, 1, 1, 0, NAN}}); }), bad_count);
  EXPECT_EQ(error_of([] { fit_elo(2, {{0, 1, INFINITY, 0, 0}}); }), bad_count);
  EXPECT_EQ(error_of([] { fit_elo(2, {{0, 1, 1, 0, 0}}, 0, -1.0); }),
            "fit_elo: prior_draws must be 0 or more, got -1");
}

}  // namespace
}  // namespace boardlab
