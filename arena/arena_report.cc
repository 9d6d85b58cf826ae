// The arena report in its forms: a table for people, JSON, CSV files and game records.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "arena/arena.h"
#include "core/text.h"

namespace boardlab {
namespace {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string signed_fixed(double value, int decimals = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f", decimals, value);
  return buf;
}

// A number of the JSON or CSV forms, or `missing` (null, an empty field) for one that does not
// exist: the report holds NaN for a rating no game pins down and a mean of no games.
std::string fixed_or(double value, int decimals, const char* missing) {
  return std::isnan(value) ? missing : fixed(value, decimals);
}

std::string pad(const std::string& s, std::size_t width, bool left = true) {
  if (s.size() >= width) return s;
  return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// The rating columns of the table: Elo and its interval, "(anchor)", or why there is none.
std::string rating_text(const EloFit& elo, std::size_t i, const Standing& standing, const std::string& anchor) {
  if (standing.games == 0) return pad("-", 7, false) + "   no games";
  if (!elo.rated[i]) return pad("-", 7, false) + "   unrated: no game links it to " + anchor;
  const std::string rating = pad(signed_fixed(elo.elo[i]), 7, false);
  if (static_cast<int>(i) == elo.anchor) return rating + "   (anchor)";
  return rating + "   [" + signed_fixed(elo.low[i]) + ", " + signed_fixed(elo.high[i]) + "]";
}

std::string percent_or_dash(double share) { return std::isnan(share) ? "-" : fixed(100 * share, 1) + "%"; }

}  // namespace

double Standing::ms_per_move() const {
  return moves > 0 ? 1000 * think_seconds / static_cast<double>(moves) : std::numeric_limits<double>::quiet_NaN();
}

double Pairing::score_first() const {
  return games_first > 0 ? points_first / games_first : std::numeric_limits<double>::quiet_NaN();
}

double Pairing::score_second() const {
  const int second = games_first > 0 ? games() - games_first : 0;
  return second > 0 ? (points - points_first) / second : std::numeric_limits<double>::quiet_NaN();
}

std::string ArenaReport::table() const {
  std::size_t width = 8;
  for (const auto& p : players) width = std::max(width, p.size() + 2);
  // Two-player games also show the first player's score by seat: a first mover's advantage.
  const bool by_seat = seats == 2;
  std::string out = pad("pairing", 2 * width + 4) + pad("wins", 7, false) + pad("draws", 7, false) +
                    pad("losses", 8, false) + pad("score", 9, false) +
                    (by_seat ? pad("as 1st", 9, false) + pad("as 2nd", 9, false) : "") + "\n";
  for (const Pairing& p : pairings)
    out += pad(players[p.a], width) + " vs " + pad(players[p.b], width) + pad(std::to_string(p.wins), 7, false) +
           pad(std::to_string(p.draws), 7, false) + pad(std::to_string(p.losses), 8, false) +
           pad(fixed(100 * p.score(), 1) + "%", 9, false) +
           (by_seat ? pad(percent_or_dash(p.score_first()), 9, false) + pad(percent_or_dash(p.score_second()), 9, false)
                    : "") +
           "\n";
  if (seats > 2)
    out += "(" + std::to_string(seats) + "-player games: each game is one result for each pair of its players)\n";
  out += "\n" + pad("player", width) + pad("games", 7, false) + pad("mean return", 13, false) +
         pad("mean rank", 11, false) + pad("ms/move", 9, false) + pad("elo", 7, false) + "   95% interval\n";
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Standing& s = standings[i];
    const bool played = s.games > 0;
    out += pad(players[i], width) + pad(std::to_string(s.games), 7, false) +
           pad(played ? signed_fixed(s.mean_return, 2) : "-", 13, false) +
           pad(played ? fixed(s.mean_rank, 2) : "-", 11, false) + pad(fixed_or(s.ms_per_move(), 1, "-"), 9, false) +
           rating_text(elo, i, s, players[elo.anchor]) + "\n";
  }
  out += "ms/move: wall-clock milliseconds of a player's choice (a sub-move is one), games on other threads sharing the cores\n";
  if (seats > 2) out += "elo: Plackett-Luce fit of each game's whole ranking of its players, on the Elo scale\n";
  const auto by_amount = [&](const ArenaGame& g) {
    const double s = pair_score(g.returns[0], g.returns[1], return_span);
    return s != 0 && s != 0.5 && s != 1;
  };
  if (seats == 2 && std::any_of(games.begin(), games.end(), by_amount))
    out += "score and elo: the share of the stakes won (where the returns lie in the game's range), not of the games\n";
  if (!elo.converged) out += "the ratings did not converge: a player won or lost every game; prior_draws above 0 keeps ratings finite\n";
  if (truncated > 0)
    out += std::to_string(truncated) + " of " + std::to_string(games.size()) +
           " games ended by a cap that is not a rule (truncated), ranked by the returns the game gives them\n";
  if (stopped)
    out += "stopped early: " + std::to_string(games.size()) + " of " + std::to_string(planned) +
           " games played (seats may be unevenly shared)\n";
  return out;
}

std::string ArenaReport::json() const {
  std::string out = "{\"game\": " + json_string(game) + ", \"seats\": " + std::to_string(seats) +
                    ", \"games\": " + std::to_string(games.size()) + ", \"planned\": " + std::to_string(planned) +
                    ", \"stopped\": " + (stopped ? "true" : "false") + ", \"truncated\": " + std::to_string(truncated) +
                    ", \"seconds\": " + fixed(seconds, 3) +
                    ", \"rating\": \"plackett-luce\", \"converged\": " + (elo.converged ? "true" : "false") +
                    ", \"players\": [";
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Standing& s = standings[i];
    out += std::string(i ? ", " : "") + "{\"name\": " + json_string(players[i]) +
           ", \"rated\": " + (elo.rated[i] ? "true" : "false") + ", \"elo\": " + fixed_or(elo.elo[i], 2, "null") +
           ", \"stderr\": " + fixed_or(elo.standard_error[i], 2, "null") +
           ", \"low\": " + fixed_or(elo.low[i], 2, "null") + ", \"high\": " + fixed_or(elo.high[i], 2, "null") + ", \"games\": " + std::to_string(s.games) +
           ", \"mean_return\": " + fixed_or(s.mean_return, 4, "null") +
           ", \"mean_rank\": " + fixed_or(s.mean_rank, 4, "null") +
           ", \"ms_per_move\": " + fixed_or(s.ms_per_move(), 3, "null") +
           ", \"truncated\": " + std::to_string(s.truncated) + "}";
  }
  out += "], \"pairings\": [";
  for (std::size_t i = 0; i < pairings.size(); ++i) {
    const Pairing& p = pairings[i];
    out += std::string(i ? ", " : "") + "{\"a\": " + json_string(players[p.a]) + ", \"b\": " + json_string(players[p.b]) +
           ", \"wins\": " + std::to_string(p.wins) + ", \"draws\": " + std::to_string(p.draws) +
           ", \"losses\": " + std::to_string(p.losses) + ", \"score\": " + fixed(p.score(), 4) +
           ", \"score_first\": " + fixed_or(p.score_first(), 4, "null") +
           ", \"score_second\": " + fixed_or(p.score_second(), 4, "null") + "}";
  }
  return out + "]}";
}

std::string ArenaReport::elo_csv() const {
  std::string out = "player,elo,stderr,low,high\n";
  for (std::size_t i = 0; i < players.size(); ++i)
    out += csv_field(players[i]) + "," + fixed_or(elo.elo[i], 2, "") + "," + fixed_or(elo.standard_error[i], 2, "") +
           "," + fixed_or(elo.low[i], 2, "") + "," + fixed_or(elo.high[i], 2, "") + "\n";
  return out;
}

std::string ArenaReport::pairings_csv() const {
  std::string out = "a,b,wins,draws,losses,score\n";
  for (const Pairing& p : pairings)
    out += csv_field(players[p.a]) + "," + csv_field(players[p.b]) + "," + std::to_string(p.wins) + "," +
           std::to_string(p.draws) + "," + std::to_string(p.losses) + "," + fixed(p.score(), 4) + "\n";
  return out;
}

std::string ArenaReport::standings_csv() const {
  std::string out = "player,games,mean_return,mean_rank,truncated,ms_per_move\n";
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Standing& s = standings[i];
    out += csv_field(players[i]) + "," + std::to_string(s.games) + "," + fixed_or(s.mean_return, 4, "") + "," +
           fixed_or(s.mean_rank, 4, "") + "," + std::to_string(s.truncated) + "," + fixed_or(s.ms_per_move(), 3, "") +
           "\n";
  }
  return out;
}

std::vector<Ranking> ArenaReport::outcomes() const {
  std::vector<Ranking> out;
  out.reserve(2 * games.size());
  for (const ArenaGame& g : games) append_outcomes(g.seats, g.returns, return_span, out);
  return out;
}

std::string ArenaReport::records() const {
  std::string out;
  for (const ArenaGame& g : games) {
    std::string names;
    for (int p : g.seats) names += (names.empty() ? "" : ",") + players[p];
    std::string returns;
    for (double r : g.returns) returns += (returns.empty() ? "" : ",") + fixed(r, 2);
    out += "[" + names + "] [" + returns + "] " + g.record + "\n";
  }
  return out;
}

}  // namespace boardlab
