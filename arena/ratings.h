// Ratings from whole rankings: a Plackett–Luce fit with ties, on the Elo scale, with 95% intervals.
//
// One game of n players gives one ranking of its players, so its outcomes count once, not
// as C(n,2) independent pairwise results (which would make the intervals too narrow). With
// strengths θ, Plackett–Luce draws the winner among the players left with probability
// e^θi / Σ e^θj, then the next among the rest, and so on. A tied group of k players among
// the remaining set R counts as the mean log-likelihood over the k! orders of the group:
//   Σ_{g∈G} θg − Σ_{t<k} Σ_{T⊆G, |T|=t} t!(k−t)!/k! · log Σ_{j∈R∖T} e^θj,
// since the first t players of a random order of G are a uniformly random t-subset. For two
// players this is Elo with a draw as half a win and half a loss, so fit_elo (arena/elo.h) is
// this fit of two-player rankings.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace boardlab {

// Elo points per natural-log unit of strength: with two players a difference of 400 is odds of 10 to 1.
inline constexpr double kEloPerNat = 400.0 / 2.302585092994046;
// The largest tied group a ranking may hold: its term sums over all 2^k subsets of the group.
inline constexpr int kMaxTiedGroup = 16;

// One outcome: the players of a game in groups, best group first, the players of one group
// tied. Weight: how many games ended this way.
struct Ranking {
  std::vector<std::vector<int>> groups;
  double weight = 1;
};

struct EloFit {
  // Per player. A player no game links to the anchor (it played none, or only against players
  // who never met the anchor's side, or the anchor played none) has no rating: its four
  // numbers are NaN, never the fit's unpinned 0 ± 10,767,140 (reports show "no games", null).
  std::vector<double> elo;             // anchor at 0
  std::vector<double> standard_error;  // of each rating (0 for the anchor)
  std::vector<double> low;             // 95% interval: elo ± 1.96 · stderr
  std::vector<double> high;
  std::vector<bool> rated;             // false: the NaN ratings above
  int anchor = 0;                      // the player rated 0 by definition (fit_rankings_held: the first held)
  int iterations = 0;
  bool converged = true;  // false when a rating runs away (a perfect record without the prior)
};

// The ranking of a game's players by their returns, highest first, equal returns tied:
// players[s] is the player in seat s and returns[s] its return.
Ranking ranking_from_returns(std::span<const int> players, std::span<const double> returns);

// What a game of two players is worth to the first of them: 1/2 + (mine − theirs) / (2 · span),
// within [0, 1], where `span` is the game's max_return − min_return. A win, a draw and a loss
// score 1, 1/2 and 0; a poker hand scores the fraction of the range its chips cover, so that
// winning more than one loses counts, not winning more often (folding a weak hand loses a hand
// and saves chips). Throws InputError when span is not positive and finite.
double pair_score(double mine, double theirs, double span);

// What one seat's return is worth against another seat's in a game of `seats` players: their
// pair_score for two seats; for more, 1 ahead, 1/2 level and 0 behind, since a share of a
// multi-player pot has no pairwise reading. The arena's tables and boardlab exploit's responder
// score both read a game through it. Throws InputError as pair_score does, and for seats < 2.
double pair_points(double mine, double theirs, int seats, double span);

// The outcomes one game adds to a rating fit, appended to `out`: players[s] sat in seat s and
// got returns[s]. Two players: the first's pair_score s as a weight-s win and a weight-(1 − s)
// loss (a tie at exactly 1/2), so a rating rises with the expected score; more players: the
// ranking of their returns (ranking_from_returns), since a share of a multi-player pot has no
// pairwise reading. Throws InputError as ranking_from_returns and pair_score do.
void append_outcomes(std::span<const int> players, std::span<const double> returns, double span,
                     std::vector<Ranking>& out);

// Maximum-likelihood Plackett–Luce strengths on the Elo scale by Newton's method, with player
// `anchor` fixed at 0 and 95% intervals from the inverse observed information. `prior_draws`
// virtual two-player draws are added to every pair of players that met in a ranking, so
// that a player who won every game gets a finite rating (BayesElo's prior); 0 gives the
// plain maximum likelihood. Players no game links to the anchor are left unrated (NaN,
// EloFit::rated false). Throws InputError, naming the fault, for a bad player index, a
// player twice in one ranking, an empty group, a tied group above kMaxTiedGroup, or a
// weight that is negative or not finite.
EloFit fit_rankings(int num_players, const std::vector<Ranking>& rankings, int anchor = 0, double prior_draws = 1.0);

// fit_rankings with several players' ratings held where they are: held_elo[p] is player p's
// fixed Elo, or NaN for a player to fit. This rates a newcomer against reference players whose
// ratings were fitted once (a game's ladder, arena/ladder.h), so that every evaluation is in
// the same units. The intervals are those of the free players given the held ratings (the
// held ones' own uncertainty is not added). Players no game links to a held player that
// played are unrated; EloFit::anchor is the first held player. Throws InputError as
// fit_rankings does, and when held_elo has the wrong length, holds no rating or an infinite one.
EloFit fit_rankings_held(int num_players, const std::vector<Ranking>& rankings, std::span<const double> held_elo,
                         double prior_draws = 1.0);

// The log-likelihood fit_rankings maximises, prior excluded, at strengths `theta` (natural-log units).
double rankings_log_likelihood(int num_players, const std::vector<Ranking>& rankings, std::span<const double> theta);

// Checks the options every rating fit shares; errors start with `who` ("fit_elo: anchor 3 is not a player").
void check_rating_options(std::string_view who, int num_players, int anchor, double prior_draws);

}  // namespace boardlab
