//! Three typical games of a run, chosen by rule so that anyone recomputes the same ones from
//! `games.csv` and the recorded moves: the report's "Typical games" and `typical.csv`.
//!
//! - **decisive**: of the games someone won, the one whose length is nearest the median length
//!   of those games (a game as long as a decided game usually is).
//! - **long**: the longest game that did not reach the ply cap (`max_plies`); the longest game
//!   of all when every game did.
//! - **special rule**: the game with the most uses of the variant's special rule
//!   ([`special_rule`]), counted as `usage.csv` counts them ([`Game::rules_used`]); none when
//!   no game uses it or the run recorded no moves.
//!
//! Every tie goes to the lowest game id. One game may fill two roles.
//!
//! [`Game::rules_used`]: variantlab_engine::game::Game::rules_used

use super::usage::Usage;
use super::{GameRecord, RunData};
use crate::stats::{fixed, GameResult};

/// The special rule that shows each built-in variant, as a label and the [`usage`](super::usage)
/// rules whose uses count towards it: what the variant adds to chess (or, for chess, its rarest
/// common special move: nearly every game castles, about half promote). A variant not named
/// here (a variant file) shows the rule used by the smallest share of its games, above none
/// (ties to the first rule name); so does a named variant whose rule no game of the run used.
pub const SPECIAL_RULES: &[(&str, &str, &[&str])] = &[
    ("chess", "promotion", &["promotion"]),
    ("dream-chess-46", "promotion", &["promotion"]),
    (
        "dialectic",
        "token step",
        &["thesis step", "antithesis step"],
    ),
    ("dialectic-hegelian", "synthesis", &["synthesis"]),
    (
        "extreme-2d",
        "area move",
        &["orthogonal area move", "diagonal area move"],
    ),
    (
        "gateway",
        "Quantum King move",
        &["quantum king step", "transformation"],
    ),
    ("dai-mitregi", "drop", &["drop"]),
    ("dai-mitregi-stepping", "drop", &["drop"]),
];

/// The roles, in the order the report and `typical.csv` list them.
pub const ROLES: [&str; 3] = ["decisive", "long", "special rule"];

/// One chosen game.
#[derive(Clone, Debug, PartialEq)]
pub struct Typical {
    /// One of [`ROLES`].
    pub role: &'static str,
    /// Game id.
    pub game: u64,
    /// Plies played after the opening.
    pub plies: u32,
    /// `1-0`, `1/2-1/2` or `0-1`.
    pub result: &'static str,
    /// Why it ended.
    pub termination: String,
    /// Uses of the run's special rule in this game (0 without recorded moves).
    pub uses: u64,
}

/// A run's typical games and the special rule they are counted by.
#[derive(Clone, Debug, PartialEq)]
pub struct TypicalGames {
    /// The special rule's label (empty without recorded moves or any rule used).
    pub rule: String,
    /// The chosen games, in [`ROLES`] order; a role without a game is left out.
    pub games: Vec<Typical>,
}

/// The special rule of `variant` in a run with `usage`: its label and rules ([`SPECIAL_RULES`]).
pub fn special_rule(variant: &str, usage: &Usage) -> Option<(String, Vec<&'static str>)> {
    let used = |rule: &str| {
        usage
            .rules
            .iter()
            .any(|r| r.rule.rule == rule && r.games_using > 0)
    };
    if let Some((_, label, rules)) = SPECIAL_RULES
        .iter()
        .find(|(v, _, rules)| *v == variant && rules.iter().any(|r| used(r)))
    {
        return Some((label.to_string(), rules.to_vec()));
    }
    usage
        .rules
        .iter()
        .filter(|r| r.rule.kind.is_none() && r.games_using > 0)
        .min_by(|a, b| {
            a.games_using
                .cmp(&b.games_using)
                .then(a.rule.rule.cmp(b.rule.rule))
        })
        .map(|r| (r.rule.rule.to_string(), vec![r.rule.rule]))
}

/// The typical games of `run` ([`usage`](super::usage::usage) its rule usage, `None` without
/// recorded moves).
pub fn typical(run: &RunData, usage: Option<&Usage>) -> TypicalGames {
    choose(run.config.variant.name(), &run.games, usage)
}

/// The typical games among `all`, games of `variant` whose rule usage is `usage`.
fn choose(variant: &str, all: &[GameRecord], usage: Option<&Usage>) -> TypicalGames {
    let special = usage.and_then(|u| special_rule(variant, u));
    let uses = |id: u64| -> u64 {
        let (Some(u), Some((_, rules))) = (usage, &special) else {
            return 0;
        };
        u.per_game
            .get(&id)
            .map_or(0, |m| rules.iter().filter_map(|r| m.get(r)).sum())
    };
    let entry = |role, g: &GameRecord| Typical {
        role,
        game: g.id,
        plies: g.plies,
        result: match g.result {
            GameResult::WhiteWin => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWin => "0-1",
        },
        termination: g.termination.clone(),
        uses: uses(g.id),
    };
    let mut games = Vec::new();
    if let Some(twice) = twice_median(all) {
        // Distances doubled, so that a median between two lengths compares exactly.
        if let Some(g) = all
            .iter()
            .filter(|g| g.result != GameResult::Draw)
            .min_by_key(|g| ((2 * i64::from(g.plies) - twice).abs(), g.id))
        {
            games.push(entry(ROLES[0], g));
        }
    }
    let longest = |capped: bool| {
        all.iter()
            .filter(|g| capped || g.termination != "max_plies")
            .max_by_key(|g| (g.plies, std::cmp::Reverse(g.id)))
    };
    if let Some(g) = longest(false).or_else(|| longest(true)) {
        games.push(entry(ROLES[1], g));
    }
    if special.is_some() {
        if let Some(g) = all
            .iter()
            .filter(|g| uses(g.id) > 0)
            .max_by_key(|g| (uses(g.id), std::cmp::Reverse(g.id)))
        {
            games.push(entry(ROLES[2], g));
        }
    }
    TypicalGames {
        rule: special.map(|s| s.0).unwrap_or_default(),
        games,
    }
}

/// Twice the median length of the decisive games (the sum of the two middle lengths), `None`
/// without any.
fn twice_median(games: &[GameRecord]) -> Option<i64> {
    let mut lengths: Vec<i64> = games
        .iter()
        .filter(|g| g.result != GameResult::Draw)
        .map(|g| i64::from(g.plies))
        .collect();
    lengths.sort_unstable();
    let n = lengths.len();
    (n > 0).then(|| lengths[(n - 1) / 2] + lengths[n / 2])
}

/// Columns of `typical.csv`.
pub const TYPICAL_HEADER: [&str; 10] = [
    "variant",
    "dir",
    "role",
    "game",
    "plies",
    "result",
    "termination",
    "rule",
    "uses",
    "median_decisive_plies",
];

/// Rows of `typical.csv` for `run`.
pub fn typical_rows(run: &RunData, t: &TypicalGames) -> Vec<Vec<String>> {
    let mid = twice_median(&run.games).map_or(String::new(), |m| fixed(m as f64 / 2.0, 1));
    t.games
        .iter()
        .map(|g| {
            vec![
                run.config.variant.name().to_string(),
                run.dir.display().to_string(),
                g.role.to_string(),
                g.game.to_string(),
                g.plies.to_string(),
                g.result.to_string(),
                g.termination.clone(),
                t.rule.clone(),
                g.uses.to_string(),
                mid.clone(),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::usage::RuleRow;
    use crate::stats::Estimate;
    use std::collections::BTreeMap;
    use variantlab_engine::game::RuleUse;

    fn game(id: u64, result: GameResult, termination: &str, plies: u32) -> GameRecord {
        GameRecord {
            id,
            result,
            termination: termination.to_string(),
            plies,
            material: Vec::new(),
        }
    }

    /// A usage whose games used `rule` as `per_game` says.
    fn usage(rule: &'static str, per_game: &[(u64, u64)], other: &[&'static str]) -> Usage {
        let row = |rule, games_using| RuleRow {
            rule: RuleUse { rule, kind: None },
            uses: 1,
            games_using,
            share: Estimate {
                value: 0.5,
                low: 0.0,
                high: 1.0,
            },
            first_ply_median: 1.0,
        };
        let mut rules = vec![row(rule, per_game.len() as u64)];
        rules.extend(other.iter().enumerate().map(|(i, r)| row(r, 10 + i as u64)));
        Usage {
            games: 10,
            rules,
            diversity: Vec::new(),
            per_game: per_game
                .iter()
                .map(|&(id, n)| (id, BTreeMap::from([(rule, n)])))
                .collect(),
        }
    }

    /// The median of 10, 20, 30 and 40 is 25: 20 and 30 are as near, the lower id wins; a
    /// draw is never the decisive game; the longest game not capped beats a capped longer one,
    /// and of two as long the lower id wins; of two games with the most uses the lower id wins.
    #[test]
    fn each_role_by_its_rule_ties_to_the_lowest_id() {
        use GameResult::*;
        let games = [
            game(0, WhiteWin, "checkmate", 10),
            game(1, Draw, "repetition", 25),
            game(2, BlackWin, "checkmate", 30),
            game(3, WhiteWin, "checkmate", 20),
            game(4, WhiteWin, "checkmate", 40),
            game(5, Draw, "max_plies", 90),
            game(6, Draw, "move_rule", 60),
            game(7, BlackWin, "checkmate", 60),
        ];
        let u = usage("promotion", &[(4, 1), (6, 3), (2, 3)], &["castling"]);
        let t = choose("chess", &games, Some(&u));
        assert_eq!(t.rule, "promotion");
        let picked: Vec<(&str, u64, u64)> =
            t.games.iter().map(|g| (g.role, g.game, g.uses)).collect();
        // Decisive lengths 10, 20, 30, 40, 60: median 30, game 2.
        assert_eq!(
            picked,
            [("decisive", 2, 3), ("long", 6, 3), ("special rule", 2, 3)]
        );
        let even = &games[..5];
        let t = choose("chess", even, None);
        assert_eq!(t.rule, "");
        assert_eq!(t.games.len(), 2, "no special-rule game without moves");
        assert_eq!(
            t.games[0].game, 2,
            "30 is as near 25 as 20 (game 3): id 2 is lower"
        );
    }

    /// Every game capped: the longest of all. A variant without a named rule, or whose named
    /// rule no game used, shows the rule the fewest games used.
    #[test]
    fn capped_runs_and_unnamed_variants_have_their_fallbacks() {
        use GameResult::*;
        let games = [
            game(0, Draw, "max_plies", 100),
            game(1, Draw, "max_plies", 100),
        ];
        let t = choose("chess", &games, None);
        assert_eq!(t.games.len(), 1, "no decisive game");
        assert_eq!((t.games[0].role, t.games[0].game), ("long", 0));
        let u = usage("en passant", &[(1, 2)], &["castling", "promotion"]);
        assert_eq!(choose("my-file", &games, Some(&u)).rule, "en passant");
        // Chess names promotion, used here by more games than en passant: still promotion.
        let u = usage("en passant", &[(1, 2)], &["promotion"]);
        assert_eq!(choose("chess", &games, Some(&u)).rule, "promotion");
        // Gateway names its Quantum King moves; none used: the fallback.
        let t = choose("gateway", &games, Some(&u));
        assert_eq!(t.rule, "en passant");
        assert_eq!(
            t.games.last().map(|g| (g.role, g.game, g.uses)),
            Some(("special rule", 1, 2))
        );
    }
}
