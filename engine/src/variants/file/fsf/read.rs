//! From a resolved `variants.ini` section to the project's TOML definition: every key is
//! translated, accepted at its default only, or refused with its file, line, section and key.
//!
//! [D] The translation is TOML text, not a `VariantSpec`: it then goes through the same
//! checks and compiler as a hand-written file, and it is what a run stores (`run.json`), so a
//! run of an `.ini` variant resumes without the `.ini` and its parents.

use super::{resolve, sections, At, Entry, CATALOGUE, CATALOGUE_ORIGIN};
use crate::ends::EndValue;
use crate::piece::betza;
use crate::variants::file::VariantFileError;
use std::cell::RefCell;
use std::fmt::Write as _;

mod rules;
use rules::{drop_rules, end_rules};

/// Fairy-Stockfish's piece types in its order: the key, the Betza movement, and the
/// centipawn value the engine starts from ([D] starting estimates, as the TOML files').
/// `None` movement: a custom piece, whose movement the value gives (`a:mNcK`).
pub(super) const TYPES: &[(&str, Option<&str>, i32)] = &[
    // The Pawn's en passant (`e`) and double step are rules of their own here.
    ("pawn", Some("fmWfcF"), 100),
    ("knight", Some("N"), 305),
    ("bishop", Some("B"), 333),
    ("rook", Some("R"), 563),
    ("queen", Some("Q"), 950),
    ("fers", Some("F"), 150),
    ("alfil", Some("A"), 120),
    ("fersAlfil", Some("FA"), 270),
    ("silver", Some("FfW"), 300),
    ("aiwok", Some("RNF"), 1000),
    ("bers", Some("RF"), 700),
    ("archbishop", Some("BN"), 875),
    ("chancellor", Some("RN"), 925),
    ("amazon", Some("QN"), 1300),
    ("knibis", Some("mNcB"), 450),
    ("biskni", Some("mBcN"), 450),
    ("kniroo", Some("mNcR"), 500),
    ("rookni", Some("mRcN"), 500),
    ("shogiPawn", Some("fW"), 90),
    ("lance", Some("fR"), 250),
    ("shogiKnight", Some("fN"), 200),
    ("gold", Some("WfF"), 400),
    ("dragonHorse", Some("BW"), 700),
    ("clobber", Some("cW"), 100),
    ("breakthrough", Some("fmWfF"), 100),
    ("immobile", Some(""), 0),
    ("cannon", Some("mRcpR"), 450),
    ("janggiCannon", Some("pR"), 450),
    ("soldier", Some("fsW"), 200),
    ("horse", Some("nN"), 300),
    ("elephant", Some("nA"), 150),
    ("janggiElephant", Some("nZ"), 250),
    ("banner", Some("RcpRnN"), 900),
    ("wazir", Some("W"), 120),
    ("commoner", Some("K"), 400),
    ("centaur", Some("KN"), 700),
];

/// Value of a custom piece ([D]: a Knight's, a starting point for `variantlab values`).
const CUSTOM_VALUE: i32 = 300;
/// Custom piece slots (`customPiece1` ... ).
const CUSTOMS: usize = 25;

/// Keys the engine honours only at Fairy-Stockfish's default (any of the values listed):
/// each names a rule the engine does not have yet.
const DEFAULT_ONLY: &[(&str, &[&str])] = &[
    ("dropLoop", &["false"]),
    ("mustDrop", &["false"]),
    ("dropPromoted", &["false"]),
    ("firstRankPawnDrops", &["false"]),
    ("promotionZonePawnDrops", &["false"]),
    ("blastOnCapture", &["false"]),
    ("gating", &["false"]),
    ("seirawanGating", &["false"]),
    ("checking", &["true"]),
    ("twoBoards", &["false"]),
    ("pocketSize", &["0"]),
    ("immobilityIllegal", &["false"]),
    ("flyingGeneral", &["false"]),
    ("makpongRule", &["false"]),
    ("cambodianMoves", &["false"]),
    ("shatarMateRule", &["false"]),
    ("bikjangRule", &["false"]),
    ("shogiPawnDropMateIllegal", &["false"]),
    ("sittuyinPromotion", &["false"]),
    ("sittuyinRookDrop", &["false"]),
    ("pieceDemotion", &["false"]),
    ("piecePromotionOnCapture", &["false"]),
    ("mandatoryPiecePromotion", &["false"]),
    ("perpetualCheckIllegal", &["false"]),
    ("moveRepetitionIllegal", &["false"]),
    ("chasingRule", &["none"]),
    ("nFoldValueAbsolute", &["false"]),
    ("checkmateValue", &["loss"]),
    ("stalematePieceCount", &["false"]),
    ("extinctionClaim", &["false"]),
    ("extinctionPseudoRoyal", &["false"]),
    ("dupleCheck", &["false"]),
    ("whiteFlag", &["", "-"]),
    ("blackFlag", &["", "-"]),
    ("flagMove", &["false"]),
    ("flagPieceSafe", &["false"]),
    ("connectN", &["0"]),
    ("materialCounting", &["none"]),
    ("countingRule", &["none"]),
    ("adjudicateFullBoard", &["false"]),
    ("wallingRule", &["none"]),
    ("pass", &["false"]),
    ("passOnStalemate", &["false"]),
    ("castlingDroppedPiece", &["false"]),
    ("oppositeCastling", &["false"]),
    ("castlingKingPiece", &["k"]),
    ("tripleStepRegionWhite", &["", "-"]),
    ("tripleStepRegionBlack", &["", "-"]),
    ("promotedPieceType", &["", "-"]),
];

/// Keys for programs that show a variant, with no effect on its rules.
const DISPLAY_ONLY: &[&str] = &["variantTemplate", "pieceToCharTable"];

/// A section translated to the project's TOML format.
#[derive(Debug)]
pub struct Translated {
    /// The variant's name (the section's).
    pub name: String,
    /// The definition in the TOML format (`docs/variant-files.md`).
    pub toml: String,
    /// For each line of `toml`, the `.ini` key it came from.
    origins: Vec<Option<At>>,
}

impl Translated {
    /// An error found in the TOML translation, told at the `.ini` key it came from.
    pub fn remap(&self, e: VariantFileError) -> VariantFileError {
        let at = e
            .line
            .and_then(|l| self.origins.get(l.wrapping_sub(1)))
            .cloned()
            .flatten();
        match at {
            Some(at) => VariantFileError {
                file: at.file,
                line: Some(at.line),
                field: format!("[{}] ({})", at.section, e.field),
                message: e.message,
            },
            None => e,
        }
    }
}

/// The keys of one resolved section, each marked when used.
struct Keys {
    entries: Vec<Entry>,
    used: RefCell<Vec<bool>>,
}

fn key_err(e: &Entry, message: impl Into<String>) -> VariantFileError {
    VariantFileError {
        file: e.at.file.clone(),
        line: Some(e.at.line),
        field: format!("[{}] {}", e.at.section, e.key),
        message: message.into(),
    }
}

impl Keys {
    fn get(&self, key: &str) -> Option<&Entry> {
        let i = self.entries.iter().position(|e| e.key == key)?;
        self.used.borrow_mut()[i] = true;
        Some(&self.entries[i])
    }
    fn bool(&self, key: &str, default: bool) -> Result<bool, VariantFileError> {
        match self.get(key) {
            None => Ok(default),
            Some(e) => match e.value.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(key_err(e, format!("{v:?}: expected true or false"))),
            },
        }
    }
    fn int(&self, key: &str) -> Result<Option<(u32, &Entry)>, VariantFileError> {
        match self.get(key) {
            None => Ok(None),
            Some(e) => e
                .value
                .parse::<u32>()
                .map(|v| Some((v, e)))
                .map_err(|_| key_err(e, format!("{:?}: expected a whole number", e.value))),
        }
    }
}

/// Each piece type's letter after one section: (type key, letter).
type Letters = Vec<(String, char)>;

/// A piece of the translated variant.
struct Piece {
    key: String,
    letter: char,
    betza: String,
    value: i32,
    royal: bool,
    at: Option<At>,
}

/// Reads section `name` of the `.ini` text (`origin` names the file in errors) and writes it
/// as a TOML definition.
///
/// # Errors
/// A malformed file, no such section, an unknown parent, a key the engine does not support
/// or a value it cannot honour: each with its file, line, section and key.
pub fn translate(origin: &str, text: &str, name: &str) -> Result<Translated, VariantFileError> {
    let file = sections(origin, text)?;
    let catalogue = sections(CATALOGUE_ORIGIN, CATALOGUE).expect("the catalogue is well-formed");
    let resolved = resolve(&file, &catalogue, origin, name)?;
    let sec = resolved.at.clone();
    let n = resolved.entries.len();
    let keys = Keys {
        entries: resolved.entries.clone(),
        used: RefCell::new(vec![false; n]),
    };
    let mut out = Out::default();
    let toml_name = name.to_string();

    // Board.
    let max_file = keys.get("maxFile");
    let files = match max_file {
        None => 8,
        Some(e) => parse_file(&e.value).ok_or_else(|| {
            key_err(
                e,
                format!("{:?}: expected a file letter (a-z) or number", e.value),
            )
        })?,
    };
    let max_rank = keys.get("maxRank");
    let ranks = match max_rank {
        None => 8,
        Some(e) => match e.value.parse::<u32>() {
            Ok(r) if (1..=128).contains(&r) => r,
            _ => return Err(key_err(e, format!("{:?}: expected a rank number", e.value))),
        },
    };
    let board = Board { files, ranks };

    // Pieces, section by section from the root as Fairy-Stockfish builds them: a section
    // without a parent starts from none (the catalogue's `chess` names chess's); a letter
    // given to a piece type takes it from the type that had it.
    let mut slots: Vec<(String, Option<&str>, i32)> = TYPES
        .iter()
        .map(|(k, b, v)| (k.to_string(), *b, *v))
        .collect();
    slots.extend((1..=CUSTOMS).map(|i| (format!("customPiece{i}"), None, CUSTOM_VALUE)));
    slots.push(("king".to_string(), Some("K"), 0));
    let slot_of = |key: &str| slots.iter().position(|(k, _, _)| k == key).unwrap_or(0);
    let mut pieces: Vec<Piece> = Vec::new();
    // The letters of each section's piece types, to read its piece sets (`qrbn`) with.
    let mut snapshots: Vec<(String, String, Letters)> = Vec::new();
    for section in &resolved.chain {
        for (key, fixed, value) in &slots {
            let Some(e) = section.entries.iter().find(|e| &e.key == key) else {
                continue;
            };
            keys.get(key);
            pieces.retain(|p| &p.key != key);
            let v = e.value.as_str();
            let first = v.chars().next();
            let c = match first {
                None | Some('-') => continue,
                Some(c) if c.is_ascii_alphabetic() => c,
                Some(_) => {
                    return Err(key_err(
                        e,
                        format!("{v:?}: expected a letter, or '-' to remove the piece"),
                    ))
                }
            };
            let rest = &v[c.len_utf8()..];
            let betza_text = match (fixed, key.as_str()) {
                (Some(b), "king") if rest.is_empty() => b.to_string(),
                (_, "king") | (None, _) => match rest.strip_prefix(':') {
                    Some(b) if !b.trim().is_empty() => b.trim().to_string(),
                    _ => {
                        return Err(key_err(
                            e,
                            format!("{v:?}: expected a letter, ':' and a Betza movement (`a:mNcK`)"),
                        ))
                    }
                },
                (Some(b), _) if rest.is_empty() => b.to_string(),
                (Some(_), _) => {
                    return Err(key_err(
                        e,
                        format!("{v:?}: a built-in piece type takes only its letter; use a customPiece for another movement"),
                    ))
                }
            };
            if betza_text.is_empty() {
                return Err(key_err(e, "a piece that never moves is not supported"));
            }
            if let Err(err) = betza::parse(&betza_text) {
                return Err(key_err(e, format!("the movement {betza_text:?}: {err}")));
            }
            let letter = c.to_ascii_uppercase();
            pieces.retain(|p| p.letter != letter);
            pieces.push(Piece {
                key: key.clone(),
                letter,
                betza: betza_text,
                value: *value,
                royal: key == "king",
                at: Some(e.at.clone()),
            });
        }
        snapshots.push((
            section.at.file.clone(),
            section.name.clone(),
            pieces.iter().map(|p| (p.key.clone(), p.letter)).collect(),
        ));
    }
    pieces.sort_by_key(|p| slot_of(&p.key));
    // Without a King (`king = -`), or where a side's start position has none (Horde's White),
    // that side plays without a royal piece, as in Fairy-Stockfish.
    let king_letter = pieces.iter().find(|p| p.royal).map(|p| p.letter);
    let letter_of = |key: &str| pieces.iter().find(|p| p.key == key).map(|p| p.letter);
    let pawn = letter_of("pawn");

    // Piece sets written as letters (`qrbn`, `-`), read with the letters of the section that
    // wrote them: a set names piece types, which keep their place if a child renames them.
    let set = |e: &Entry| -> Result<Vec<char>, VariantFileError> {
        let snap = snapshots
            .iter()
            .find(|(f, s, _)| *f == e.at.file && *s == e.at.section)
            .map(|(_, _, v)| v.as_slice())
            .unwrap_or(&[]);
        let mut v = Vec::new();
        for c in e.value.chars().filter(|c| !c.is_whitespace()) {
            if c == '-' {
                continue;
            }
            let u = c.to_ascii_uppercase();
            let Some((key, _)) = snap.iter().find(|(_, l)| *l == u) else {
                return Err(key_err(e, format!("{c:?} is no piece of this variant")));
            };
            // A type removed since is no longer a choice (Fairy-Stockfish drops it too).
            if let Some(p) = pieces.iter().find(|p| &p.key == key) {
                if !v.contains(&p.letter) {
                    v.push(p.letter);
                }
            }
        }
        Ok(v)
    };
    // A key and its White/Black forms, which must agree.
    let sided = |key: &str| -> Result<Option<&Entry>, VariantFileError> {
        let both = keys.get(key);
        let w = keys.get(&format!("{key}White"));
        let b = keys.get(&format!("{key}Black"));
        match (w, b) {
            (None, None) => Ok(both),
            (Some(w), Some(b)) if w.value.split_whitespace().eq(b.value.split_whitespace()) => Ok(Some(w)),
            (Some(e), _) | (_, Some(e)) => Err(key_err(
                e,
                format!("different values for White and Black are not supported; write `{key}` for both"),
            )),
        }
    };

    // The start position.
    let fen_entry = keys.get("startFen");
    let fen_text = fen_entry.map_or(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        |e| e.value.as_str(),
    );
    let fen_err = |m: String| match fen_entry {
        Some(e) => key_err(e, m),
        None => VariantFileError {
            file: origin.into(),
            line: Some(sec.line),
            field: format!("[{name}] startFen"),
            message: format!("the default start position: {m}"),
        },
    };
    let fields: Vec<&str> = fen_text.split_whitespace().collect();
    let Some(&board_field) = fields.first() else {
        return Err(fen_err("expected the board".into()));
    };
    // The hands (`[...]`) and promoted marks (`~`) are the position text's, read there.
    let squares: String = board_field
        .split('[')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|&c| c != '~')
        .collect();
    let grid = read_board(&squares, &board).map_err(fen_err)?;
    let (rights, ep, rest) = fen_tail(&fields);
    // Fairy-Stockfish reads any side but `b` as White's move, and a board alone as White's.
    let side = if fields.get(1).is_some_and(|f| f.starts_with('b')) {
        "b"
    } else {
        "w"
    };
    let mut setup = format!("{board_field} {side} {rights} {ep}");
    for f in rest {
        setup.push(' ');
        setup.push_str(f);
    }
    if let Some(c) = rights.chars().find(|c| !"KQkq-".contains(*c)) {
        return Err(fen_err(format!(
            "castling right {c:?}: only KQkq are supported (not file letters)"
        )));
    }

    // Promotion.
    let promoting: Vec<char> = match sided("promotionPawnTypes")? {
        Some(e) => set(e)?,
        None => match keys.get("pawnTypes") {
            Some(e) => set(e)?,
            None => pawn.into_iter().collect(),
        },
    };
    let mut choices: Vec<char> = match sided("promotionPieceTypes")? {
        Some(e) => set(e)?,
        None => ["queen", "rook", "bishop", "knight"]
            .iter()
            .filter_map(|k| letter_of(k))
            .collect(),
    };
    if let Some(e) = choices
        .iter()
        .find(|&&c| Some(c) == king_letter)
        .and(sided("promotionPieceTypes")?)
    {
        return Err(key_err(e, "promotion to the royal King is not supported"));
    }
    choices.retain(|&c| Some(c) != king_letter);
    let rank_cells = |r: u32| -> Vec<String> {
        (0..board.files)
            .map(|f| format!("{}{}", (b'a' + f as u8) as char, r))
            .collect()
    };
    let mut zone_at: Option<At> = None;
    let mut zone: [Vec<String>; 2] = [rank_cells(8), rank_cells(1)];
    if board.ranks < 8 {
        zone[0].clear();
    }
    if let Some((r, e)) = keys.int("promotionRank")? {
        if r < 1 || r > board.ranks {
            return Err(key_err(
                e,
                format!("rank {r} is not on a board of {} ranks", board.ranks),
            ));
        }
        zone = [
            (r..=board.ranks).flat_map(rank_cells).collect(),
            (1..=board.ranks + 1 - r).flat_map(rank_cells).collect(),
        ];
        zone_at = Some(e.at.clone());
    }
    for (i, side) in ["White", "Black"].iter().enumerate() {
        if let Some(e) = keys.get(&format!("promotionRegion{side}")) {
            zone[i] = region(e, &board)?;
            zone_at = Some(e.at.clone());
        }
    }
    let mandatory = keys.bool("mandatoryPawnPromotion", true)?;
    let mut only_lost = false;
    if let Some(e) = keys.get("promotionLimit") {
        // Honoured where every choice is limited to the number each side starts with: a
        // choice is then available only while the side has lost one (`promotion_only_lost`).
        let mut limits: Vec<(char, u32)> = Vec::new();
        let toks: Vec<&str> = e.value.split_whitespace().collect();
        for t in &toks {
            let parsed = t.split_once(':').and_then(|(l, n)| {
                let mut lc = l.chars();
                match (lc.next(), lc.next(), n.parse::<u32>()) {
                    (Some(c), None, Ok(n)) => Some((c.to_ascii_uppercase(), n)),
                    _ => None,
                }
            });
            match parsed {
                Some(x) => limits.push(x),
                None => {
                    return Err(key_err(
                        e,
                        format!("{t:?}: expected letter:count (`q:1 r:2`)"),
                    ))
                }
            }
        }
        for &c in &choices {
            let white = grid.iter().filter(|&&(l, _, _)| l == c).count() as u32;
            let black = grid
                .iter()
                .filter(|&&(l, _, _)| l == c.to_ascii_lowercase())
                .count() as u32;
            match limits.iter().find(|(l, _)| *l == c) {
                Some(&(_, n)) if n == white && n == black && n > 0 => {}
                _ => {
                    return Err(key_err(
                        e,
                        format!(
                            "only limits equal to each side's count of every choice in the start position are supported (the engine's \"promote only to a lost piece\"); {c} starts {white} times"
                        ),
                    ))
                }
            }
        }
        only_lost = true;
    }
    let promotion = !promoting.is_empty() && !choices.is_empty() && !zone[0].is_empty();
    if promotion && zone[1].is_empty() {
        let m = "White promotes but Black has no promotion cells; the engine needs both";
        return Err(match &zone_at {
            Some(a) => VariantFileError {
                file: a.file.clone(),
                line: Some(a.line),
                field: format!("[{}] promotion", a.section),
                message: m.into(),
            },
            None => VariantFileError {
                file: origin.into(),
                line: Some(sec.line),
                field: format!("[{name}] promotionRank"),
                message: format!("{m} (Fairy-Stockfish's default regions are ranks 8 and 1)"),
            },
        });
    }

    // Double step and en passant.
    let mut double: Option<(char, u32, At)> = None;
    let ds_on = keys.bool("doubleStep", true)?;
    if let Some(e) = keys.get("firstRankDoubleSteps") {
        if e.value != "false" {
            return Err(key_err(
                e,
                "double steps from the first rank are not supported",
            ));
        }
    }
    let mut regions: [Option<(Vec<String>, At)>; 2] = [None, None];
    if let Some((r, e)) = keys.int("doubleStepRank")? {
        let min = keys.int("doubleStepRankMin")?;
        if let Some((m, me)) = min {
            if m != r {
                return Err(key_err(me, "a range of double-step ranks is not supported"));
            }
        }
        if r < 1 || r > board.ranks {
            return Err(key_err(
                e,
                format!("rank {r} is not on a board of {} ranks", board.ranks),
            ));
        }
        regions = [
            Some((rank_cells(r), e.at.clone())),
            Some((rank_cells(board.ranks + 1 - r), e.at.clone())),
        ];
    } else if let Some((_, me)) = keys.int("doubleStepRankMin")? {
        return Err(key_err(me, "a range of double-step ranks is not supported"));
    }
    for (i, side) in ["White", "Black"].iter().enumerate() {
        if let Some(e) = keys.get(&format!("doubleStepRegion{side}")) {
            regions[i] = Some((region(e, &board)?, e.at.clone()));
        }
    }
    // Per side: the double step's rank, and whether the first rank double-steps too.
    let mut first_rank = [false; 2];
    if let (true, Some(p)) = (ds_on, pawn) {
        let def = |r: u32| {
            if r <= board.ranks {
                rank_cells(r)
            } else {
                Vec::new()
            }
        };
        let white = regions[0].clone().unwrap_or_else(|| (def(2), sec.clone()));
        let black = regions[1].clone().unwrap_or_else(|| (def(7), sec.clone()));
        // One whole rank, or (Horde's White) one whole rank and the side's first rank.
        let whole_ranks = |cells: &[String], first: u32| -> Option<(u32, bool)> {
            let mut ranks: Vec<u32> = cells
                .iter()
                .filter_map(|c| c.get(1..)?.parse().ok())
                .collect();
            ranks.dedup();
            let whole: Vec<String> = ranks.iter().flat_map(|&r| rank_cells(r)).collect();
            if whole != cells {
                return None;
            }
            match ranks[..] {
                [r] => Some((r, false)),
                [a, b] if a == first || b == first => Some((if a == first { b } else { a }, true)),
                _ => None,
            }
        };
        let wr = whole_ranks(&white.0, 1);
        let br = whole_ranks(&black.0, board.ranks);
        match (wr, br) {
            (Some((w, wf)), Some((b, bf))) if b == board.ranks + 1 - w => {
                double = Some((p, w, white.1));
                first_rank = [wf, bf];
            }
            (None, None) if white.0.is_empty() && black.0.is_empty() => {}
            _ => {
                // Black's region is blamed only where it alone is malformed.
                let a = if wr.is_some() && br.is_none() {
                    &black.1
                } else {
                    &white.1
                };
                return Err(VariantFileError {
                    file: a.file.clone(),
                    line: Some(a.line),
                    field: format!("[{}] doubleStepRegion", a.section),
                    message: format!(
                        "double steps from one whole rank (and, for a side, its first rank too), Black's the mirror of White's, are supported; here White's are {:?} and Black's {:?} (Fairy-Stockfish's defaults are ranks 2 and 7: set doubleStepRank or doubleStep = false on a board of {} ranks)",
                        white.0, black.0, board.ranks
                    ),
                });
            }
        }
    }
    // En passant regions: where a side captures en passant. Honoured where they are the
    // whole rank the opponent's double step passes (Horde: ranks 6 and 3), which is needed
    // where the opponent double-steps from its first rank too (that step gives no right).
    for (i, side) in ["White", "Black"].iter().enumerate() {
        let them = 1 - i;
        let passed = double
            .as_ref()
            .map(|(_, w, _)| if them == 0 { w + 1 } else { board.ranks - w });
        match (keys.get(&format!("enPassantRegion{side}")), passed) {
            (Some(e), Some(r)) if region(e, &board)? == rank_cells(r) => {}
            (Some(e), _) => {
                return Err(key_err(
                    e,
                    match passed {
                        Some(r) => format!(
                        "only the whole rank the opponent's double step passes (*{r}) is supported"
                    ),
                        None => "en passant without a double step is not supported".to_string(),
                    },
                ))
            }
            (None, Some(r)) if first_rank[them] => {
                let a = &double.as_ref().expect("a double step").2;
                return Err(VariantFileError {
                    file: a.file.clone(),
                    line: Some(a.line),
                    field: format!("[{}] enPassantRegion{side}", a.section),
                    message: format!("missing: a double step from the first rank is supported without en passant past it; set enPassantRegion{side} = *{r}"),
                });
            }
            (None, _) => {}
        }
    }
    for k in [
        "enPassantRegion",
        "enPassantTypes",
        "enPassantTypesWhite",
        "enPassantTypesBlack",
    ] {
        if let Some(e) = keys.get(k) {
            return Err(key_err(
                e,
                "en passant other than the Pawn's after its double step is not supported",
            ));
        }
    }

    // Castling.
    let castling_on = keys.bool("castling", true)?;
    // Chess960's castling (the King's path tested with the Rook lifted, the Rook found from
    // the edge) is how the engine castles in every variant; the key only has to be valid.
    keys.bool("chess960", false)?;
    let file_key = |k: &str, default: u32| -> Result<(u32, Option<&Entry>), VariantFileError> {
        match keys.get(k) {
            None => Ok((default, None)),
            Some(e) => match parse_file(&e.value) {
                Some(f) if f <= board.files => Ok((f, Some(e))),
                _ => Err(key_err(
                    e,
                    format!("{:?}: not a file of this board", e.value),
                )),
            },
        }
    };
    let (ks_file, _) = file_key("castlingKingsideFile", 7)?;
    let (qs_file, _) = file_key("castlingQueensideFile", 3)?;
    let (king_file, king_file_entry) = file_key("castlingKingFile", 5)?;
    // Fairy-Stockfish castles the King from where the start position has it.
    let king_file_given = king_file_entry.is_some();
    let (rook_ks_file, _) = file_key("castlingRookKingsideFile", board.files)?;
    let (rook_qs_file, _) = file_key("castlingRookQueensideFile", 1)?;
    let castling_rank = match keys.int("castlingRank")? {
        None => 1,
        Some((r, e)) if r >= 1 && r <= board.ranks => {
            let _ = e;
            r
        }
        Some((_, e)) => return Err(key_err(e, "not a rank of this board")),
    };
    let rook_letters: Vec<char> = match keys
        .get("castlingRookPieces")
        .or(keys.get("castlingRookPiece"))
    {
        Some(e) => set(e)?,
        None => letter_of("rook").into_iter().collect(),
    };
    let mut castles: Vec<String> = Vec::new();
    let mut castle_at: Option<At> = None;
    if castling_on && rights != "-" {
        // White's castling moves (Black's are their mirror), read off White's pieces, or off
        // Black's where only Black castles (Horde: White has no King).
        let white_castles = rights.contains(['K', 'Q']);
        let grid: Vec<(char, u32, u32)> = grid
            .iter()
            .filter(|&&(l, _, _)| l.is_ascii_uppercase() == white_castles)
            .map(|&(l, f, r)| match white_castles {
                true => (l, f, r),
                false => (l.to_ascii_uppercase(), f, board.ranks + 1 - r),
            })
            .collect();
        let rights = match white_castles {
            true => rights.to_string(),
            false => rights.to_ascii_uppercase(),
        };
        let kings: Vec<u32> = grid
            .iter()
            .filter(|&&(l, _, r)| Some(l) == king_letter && r == castling_rank)
            .map(|&(_, f, _)| f)
            .collect();
        let Some(&kf) = kings.first() else {
            return Err(fen_err(format!(
                "castling rights {rights:?}, but no King on rank {castling_rank}"
            )));
        };
        if king_file_given && kf != king_file {
            return Err(fen_err(format!(
                "the King castles from file {king_file} (castlingKingFile) but stands on file {kf}"
            )));
        }
        let rook_at = |f: u32| {
            grid.iter()
                .any(|&(l, gf, r)| gf == f && r == castling_rank && rook_letters.contains(&l))
        };
        let rook_letter_at = |f: u32| {
            grid.iter()
                .find(|&&(_, gf, r)| gf == f && r == castling_rank)
                .map(|&(l, _, _)| l)
        };
        for (right, dest, step) in [('K', ks_file, 1i32), ('Q', qs_file, -1i32)] {
            if !rights.contains(right) {
                continue;
            }
            // From castlingRook{King,Queen}sideFile towards the King, the first castling
            // piece: the outermost one (Chess960's rule, and chess's with the Rook in the corner).
            let mut rook_file = None;
            let mut f = if step > 0 { rook_ks_file } else { rook_qs_file } as i32;
            while f != kf as i32 && f >= 1 && f <= board.files as i32 {
                if rook_at(f as u32) {
                    rook_file = Some(f as u32);
                    break;
                }
                f -= step;
            }
            let Some(rf) = rook_file else {
                return Err(fen_err(format!(
                    "castling right {right}, but no castling piece on its side of the King"
                )));
            };
            let rook_dest = (dest as i32 - step) as u32;
            let cell = |f: u32| format!("{}{castling_rank}", (b'a' + f as u8 - 1) as char);
            castles.push(format!(
                "    {{ king = [\"{}\", \"{}\"], rook = [\"{}\", \"{}\"], piece = \"{}\" }},",
                cell(kf),
                cell(dest),
                cell(rf),
                cell(rook_dest),
                rook_letter_at(rf).unwrap_or('R')
            ));
        }
        castle_at = fen_entry.map(|e| e.at.clone());
    }

    // Game end.
    let end_value = |key: &str| match keys.get(key) {
        None => Ok((EndValue::Draw, None)),
        Some(e) => EndValue::named(&e.value)
            .map(|v| (v, Some(e.at.clone())))
            .ok_or_else(|| key_err(e, format!("{:?}: expected win, loss or draw", e.value))),
    };
    let (stalemate, stalemate_at) = end_value("stalemateValue")?;
    let (repetition_value, repetition_value_at) = end_value("nFoldValue")?;
    // nFoldRule counts the occurrences that end the game; 0 is none, and 1 acts as 2 in
    // Fairy-Stockfish (the first repetition found is enough).
    let (repetition, repetition_at) = match keys.int("nFoldRule")? {
        None => ("3".to_string(), None),
        Some((0, e)) => ("false".to_string(), Some(e.at.clone())),
        Some((n, e)) => (n.max(2).to_string(), Some(e.at.clone())),
    };
    let must_capture = keys.bool("mustCapture", false)?;
    let must_capture_at = keys.get("mustCapture").map(|e| e.at.clone());
    let (move_rule, move_rule_at) = match keys.int("nMoveRule")? {
        None => (50, None),
        Some((n, e)) => (n, Some(e.at.clone())),
    };
    let (resets, resets_at) = match sided("nMoveRuleTypes")?.or(keys.get("pawnTypes")) {
        Some(e) => (set(e)?, Some(e.at.clone())),
        None => (pawn.into_iter().collect(), None),
    };

    let mut ends = end_rules(&keys, &board, &fields, &set, &sided)?;
    ends.extend(drop_rules(&keys)?);

    // Keys honoured at their defaults only, the display keys, and anything else.
    for (k, ok) in DEFAULT_ONLY {
        if let Some(e) = keys.get(k) {
            if !ok.contains(&e.value.as_str()) {
                return Err(key_err(
                    e,
                    format!(
                        "{:?}: not supported (the engine has this rule only at Fairy-Stockfish's default, {})",
                        e.value,
                        ok.iter().map(|v| if v.is_empty() { "empty".to_string() } else { v.to_string() }).collect::<Vec<_>>().join(" or ")
                    ),
                ));
            }
        }
    }
    for k in DISPLAY_ONLY {
        keys.get(k);
    }
    let used = keys.used.borrow();
    if let Some((e, _)) = keys.entries.iter().zip(used.iter()).find(|(_, &u)| !u) {
        return Err(key_err(
            e,
            "not supported: the engine has no rule for this key yet",
        ));
    }
    drop(used);

    // The TOML text.
    let sec_at = Some(sec.clone());
    out.line(
        &format!(
            "# Translated by variantlab from Fairy-Stockfish's format: {origin}, section [{name}]."
        ),
        None,
    );
    out.line(&format!("name = {}", quote(&toml_name)), sec_at.clone());
    out.line(&format!("title = {}", quote(&toml_name)), sec_at.clone());
    out.line("notes = [", None);
    out.line(
        &format!(
            "    {},",
            quote(&format!(
                "[V] read from Fairy-Stockfish's format: {origin}, section [{name}]"
            ))
        ),
        None,
    );
    out.line(&format!("    {},", quote("[D] piece values are the engine's starting estimates (a custom piece: a Knight's), not Fairy-Stockfish's")), None);
    out.line("]", None);
    out.line(
        &format!("setup = {}", quote(&setup)),
        fen_entry.map(|e| e.at.clone()).or(sec_at.clone()),
    );
    out.line("", None);
    out.line("[board]", None);
    out.line(
        &format!("files = {}", board.files),
        max_file.map(|e| e.at.clone()).or(sec_at.clone()),
    );
    out.line(
        &format!("ranks = {}", board.ranks),
        max_rank.map(|e| e.at.clone()).or(sec_at.clone()),
    );
    for p in &pieces {
        out.line("", None);
        out.line("[[pieces]]", p.at.clone().or(sec_at.clone()));
        out.line(&format!("name = {}", quote(&p.key)), p.at.clone());
        out.line(&format!("letter = \"{}\"", p.letter), p.at.clone());
        out.line(&format!("betza = {}", quote(&p.betza)), p.at.clone());
        out.line(&format!("value = {}", p.value), p.at.clone());
        if p.royal {
            out.line("royal = true", p.at.clone());
        }
        if promotion && promoting.contains(&p.letter) {
            out.line(
                &format!(
                    "promotes_to = {}",
                    list(choices.iter().map(|c| c.to_string()))
                ),
                zone_at.clone(),
            );
            out.line(
                &format!("promotion_zone = {}", list(zone[0].iter().cloned())),
                zone_at.clone(),
            );
            out.line(
                &format!("promotion_zone_black = {}", list(zone[1].iter().cloned())),
                zone_at.clone(),
            );
        }
    }
    out.line("", None);
    out.line("[rules]", None);
    out.line("position_format = \"fen\"", None);
    match &double {
        Some((l, r, a)) => {
            out.line(&format!("double_step = \"{l}\""), Some(a.clone()));
            out.line(&format!("double_step_rank = {r}"), Some(a.clone()));
            out.line("en_passant = true", Some(a.clone()));
            let sides: Vec<String> = ["white", "black"]
                .iter()
                .zip(first_rank)
                .filter(|(_, f)| *f)
                .map(|(s, _)| s.to_string())
                .collect();
            if !sides.is_empty() {
                out.line(
                    &format!("double_step_first_rank = {}", list(sides.into_iter())),
                    Some(a.clone()),
                );
            }
        }
        None => out.line("double_step = \"\"", None),
    }
    out.line("castling = [", castle_at.clone());
    for c in &castles {
        out.line(c, castle_at.clone());
    }
    out.line("]", castle_at);
    out.line(
        &format!("promotion_mandatory = {mandatory}"),
        keys.get("mandatoryPawnPromotion").map(|e| e.at.clone()),
    );
    out.line(
        &format!("promotion_only_lost = {only_lost}"),
        keys.get("promotionLimit").map(|e| e.at.clone()),
    );
    out.line(&format!("move_rule = {move_rule}"), move_rule_at);
    out.line(
        &format!(
            "move_rule_resets = {}",
            list(resets.iter().map(|c| c.to_string()))
        ),
        resets_at,
    );
    // Fairy-Stockfish resets the clock on captures and on moves of nMoveRuleTypes only.
    out.line("promotion_resets_clock = false", None);
    out.line(&format!("repetition = {repetition}"), repetition_at);
    out.line(
        &format!("repetition_value = \"{}\"", repetition_value.name()),
        repetition_value_at,
    );
    out.line(
        &format!("stalemate = \"{}\"", stalemate.name()),
        stalemate_at,
    );
    // Fairy-Stockfish has no dead-position rule: such games end by the clock or repetition.
    out.line("insufficient_material = false", None);
    out.line(&format!("must_capture = {must_capture}"), must_capture_at);
    for (l, at) in ends {
        out.line(&l, at);
    }
    Ok(Translated {
        name: toml_name,
        toml: out.text,
        origins: out.origins,
    })
}

/// The TOML text being written, with the `.ini` origin of each line.
#[derive(Default)]
struct Out {
    text: String,
    origins: Vec<Option<At>>,
}

impl Out {
    fn line(&mut self, s: &str, at: Option<At>) {
        let _ = writeln!(self.text, "{s}");
        self.origins.push(at);
    }
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.map(|s| quote(&s)).collect();
    format!("[{}]", v.join(", "))
}

#[derive(Clone, Copy)]
struct Board {
    files: u32,
    ranks: u32,
}

/// Fairy-Stockfish's file: a letter (`j`) or a number (`10`), 1-based here.
fn parse_file(v: &str) -> Option<u32> {
    let v = v.trim();
    if let Ok(n) = v.parse::<u32>() {
        return (1..=26).contains(&n).then_some(n);
    }
    let mut cs = v.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Some(c as u32 - 'a' as u32 + 1),
        _ => None,
    }
}

/// A region in Fairy-Stockfish's notation: cells (`e4`), whole ranks (`*8`), whole files
/// (`a*`), separated by spaces; `-` for none. The cells, ordered by rank then file.
fn region(e: &Entry, b: &Board) -> Result<Vec<String>, VariantFileError> {
    let mut cells: Vec<(u32, u32)> = Vec::new();
    for sym in e.value.split_whitespace() {
        if sym == "-" {
            break;
        }
        let bad = || {
            key_err(
                e,
                format!("{sym:?} is not a cell, `*RANK` or `FILE*` of this board"),
            )
        };
        if let Some(r) = sym.strip_prefix('*') {
            let r: u32 = r.parse().map_err(|_| bad())?;
            if r < 1 || r > b.ranks {
                return Err(bad());
            }
            cells.extend((1..=b.files).map(|f| (r, f)));
        } else if let Some(f) = sym.strip_suffix('*') {
            let f = parse_file(f).filter(|&f| f <= b.files).ok_or_else(bad)?;
            cells.extend((1..=b.ranks).map(|r| (r, f)));
        } else {
            let mut cs = sym.chars();
            let f = cs
                .next()
                .and_then(|c| parse_file(&c.to_string()))
                .ok_or_else(bad)?;
            let r: u32 = cs.as_str().parse().map_err(|_| bad())?;
            if f > b.files || r < 1 || r > b.ranks {
                return Err(bad());
            }
            cells.push((r, f));
        }
    }
    cells.sort_unstable();
    cells.dedup();
    Ok(cells
        .into_iter()
        .map(|(r, f)| format!("{}{r}", (b'a' + f as u8 - 1) as char))
        .collect())
}

/// The castling rights, en passant cell and the fields after them (checks, clocks) of a
/// `startFen` split at white space, read as Fairy-Stockfish reads them: the fields after the
/// side to move may be left out, and a number where the castling rights would be means that
/// both are (`b 0 1`, `w 7+7 0 1`); a number where the en passant cell would be means that it
/// is (`w - 0 1`).
fn fen_tail<'a>(fields: &'a [&'a str]) -> (&'a str, &'a str, &'a [&'a str]) {
    let numeric = |f: &&str| f.starts_with(|c: char| c.is_ascii_digit());
    match fields.get(2) {
        None => ("-", "-", &[]),
        Some(f) if numeric(f) => ("-", "-", &fields[2..]),
        Some(&rights) => match fields.get(3) {
            Some(ep) if !numeric(ep) => (rights, ep, &fields[4..]),
            _ => (rights, "-", &fields[3..]),
        },
    }
}

/// The pieces of a FEN board field: (letter as written, file, rank), 1-based.
fn read_board(field: &str, b: &Board) -> Result<Vec<(char, u32, u32)>, String> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != b.ranks as usize {
        return Err(format!("{} ranks, the board has {}", rows.len(), b.ranks));
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = b.ranks - i as u32;
        let mut file = 0u32;
        let mut cs = row.chars().peekable();
        while let Some(c) = cs.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                while let Some(d) = cs.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d);
                    cs.next();
                }
                file = file.saturating_add(n);
            } else if c.is_ascii_alphabetic() {
                file += 1;
                out.push((c, file, rank));
            } else {
                return Err(format!(
                    "{c:?} in rank {rank}: only letters and digits are supported (no pockets, promoted marks or walls)"
                ));
            }
        }
        if file != b.files {
            return Err(format!(
                "rank {rank} covers {file} files, the board has {}",
                b.files
            ));
        }
    }
    Ok(out)
}

/// A set of piece letters read at its key ([`translate`]'s `set`).
type SetOf<'a> = dyn Fn(&Entry) -> Result<Vec<char>, VariantFileError> + 'a;
/// A key and its White and Black forms, which must agree ([`translate`]'s `sided`).
type Sided<'a, 'k> = dyn Fn(&str) -> Result<Option<&'k Entry>, VariantFileError> + 'a;
