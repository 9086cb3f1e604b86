//! From the document to a checked [`VariantSpec`]: the inherited base, name, board, pieces,
//! promotion, setup and rules, each checked where it is read.

use super::board::{board, mirror_fn, zone};
use super::doc::{leak, leak_chars, letter, Ctx, Doc, Line, PieceM, RepetitionDoc};
use super::setup::{castling, check_setup};
use super::{ParsedVariant, VariantFileError, MAX_PIECES};
use crate::ends::EndValue;
use crate::piece::{betza, PieceSpec};
use crate::position::Variant;
use crate::rules::{
    ClockRule, DoubleStep, DropRule, FenStyle, PromotionRule, RepetitionRule, VariantSpec,
};
use crate::variants::VariantKind;

/// Parses and checks a variant definition without registering it.
///
/// # Errors
/// The first problem found, with its file, line and field.
pub fn parse(origin: &str, text: &str) -> Result<ParsedVariant, VariantFileError> {
    let ctx = Ctx { origin, text };
    let doc: Doc = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| ctx.line_of(s));
        ctx.err(line, "", e.message().trim().to_string())
    })?;

    // The base: an inherited built-in, or an empty chess-family variant.
    let base: Option<(VariantKind, &'static VariantSpec)> = match &doc.inherits {
        None => None,
        Some(s) => {
            let kind = match VariantKind::from_name(s.get_ref()) {
                Ok(k @ (VariantKind::Chess | VariantKind::Dream46)) => k,
                _ => {
                    return Err(ctx.err(
                        ctx.at(s.span()),
                        "inherits",
                        format!(
                            "{:?} is not a built-in chess-family variant (chess, dream-chess-46)",
                            s.get_ref()
                        ),
                    ))
                }
            };
            let spec: &'static VariantSpec = match kind {
                VariantKind::Chess => &crate::variants::Chess::rules().spec,
                _ => &crate::variants::Dream46::rules().spec,
            };
            Some((kind, spec))
        }
    };

    // Name.
    let Some(name) = &doc.name else {
        return Err(ctx.err(
            Some(1),
            "name",
            "missing: every variant file names its variant",
        ));
    };
    let name_line = ctx.at(name.span());
    let n = name.get_ref();
    if n.is_empty()
        || !n
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(ctx.err(
            name_line,
            "name",
            format!("{n:?}: use lower-case letters, digits and '-'"),
        ));
    }
    if VariantKind::ALL.iter().any(|k| k.name() == n) {
        return Err(ctx.err(
            name_line,
            "name",
            format!("{n:?} is a built-in variant; give the file's variant its own name"),
        ));
    }

    // Board.
    let topology = match &doc.board {
        Some(b) => board(&ctx, b.get_ref())?,
        None => match base {
            Some((_, spec)) => spec.topology.clone(),
            None => {
                return Err(ctx.err(
                    None,
                    "board",
                    "missing: give [board] files and ranks, or inherit a variant",
                ))
            }
        },
    };
    let (_, ranks, _) = topology.dims();
    let mirror = mirror_fn(&topology);

    // Pieces.
    let mut pieces: Vec<PieceM> = match base {
        Some((_, spec)) => spec
            .pieces
            .iter()
            .map(|p| {
                let promo = spec
                    .promotion
                    .as_ref()
                    .filter(|pr| pr.pieces.contains(&p.letter));
                PieceM {
                    name: p.name.to_string(),
                    letter: p.letter,
                    betza: p.betza.to_string(),
                    value: p.value,
                    royal: p.royal,
                    promotes_to: promo.map(|pr| pr.choices.to_vec()).unwrap_or_default(),
                    zone: promo
                        .map(|pr| {
                            [
                                pr.zone[0].iter().map(|s| s.to_string()).collect(),
                                pr.zone[1].iter().map(|s| s.to_string()).collect(),
                            ]
                        })
                        .unwrap_or_default(),
                    line: None,
                }
            })
            .collect(),
        None => Vec::new(),
    };
    for (i, pd) in doc.pieces.iter().enumerate() {
        let line = ctx.at(pd.span());
        let pd = pd.get_ref();
        let f = |k: &str| format!("pieces[{i}].{k}");
        let lline = ctx.at(pd.letter.span());
        let l = letter(&ctx, lline, &f("letter"), pd.letter.get_ref())?;
        let existing = pieces.iter().position(|p| p.letter == l);
        if let Some(j) = existing {
            if pieces[j].line.is_some() {
                return Err(ctx.err(
                    lline,
                    &f("letter"),
                    format!(
                        "letter {l} used twice (also by {} at line {})",
                        pieces[j].name,
                        pieces[j].line.unwrap_or(0)
                    ),
                ));
            }
            if pd.remove {
                pieces.remove(j);
                continue;
            }
        } else if pd.remove {
            return Err(ctx.err(
                lline,
                &f("remove"),
                format!("no inherited piece with letter {l} to remove"),
            ));
        }
        let mut p = match existing {
            Some(j) => pieces[j].clone(),
            None => {
                let (Some(name), Some(_)) = (&pd.name, &pd.betza) else {
                    return Err(ctx.err(
                        line,
                        &format!("pieces[{i}]"),
                        format!("new piece {l} needs a name and a betza movement"),
                    ));
                };
                PieceM {
                    name: name.get_ref().clone(),
                    letter: l,
                    betza: String::new(),
                    value: 0,
                    royal: false,
                    promotes_to: Vec::new(),
                    zone: Default::default(),
                    line,
                }
            }
        };
        p.line = line;
        if let Some(n) = &pd.name {
            let ok = !n.get_ref().is_empty()
                && n.get_ref()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !ok {
                return Err(ctx.err(
                    ctx.at(n.span()),
                    &f("name"),
                    format!(
                        "{:?}: use letters, digits, '-' and '_' (it names CSV columns)",
                        n.get_ref()
                    ),
                ));
            }
            p.name = n.get_ref().clone();
        }
        if let Some(b) = &pd.betza {
            let bl = ctx.at(b.span());
            if b.get_ref().trim().is_empty() {
                return Err(ctx.err(bl, &f("betza"), "empty movement"));
            }
            betza::parse(b.get_ref()).map_err(|e| ctx.err(bl, &f("betza"), e.to_string()))?;
            p.betza = b.get_ref().clone();
        }
        if let Some(v) = pd.value {
            p.value = v;
        }
        if let Some(r) = pd.royal {
            p.royal = r;
        }
        if let Some(c) = &pd.promotes_to {
            let cl = ctx.at(c.span());
            p.promotes_to = c
                .get_ref()
                .iter()
                .map(|s| letter(&ctx, cl, &f("promotes_to"), s))
                .collect::<Result<_, _>>()?;
            if p.promotes_to.is_empty() {
                p.zone = Default::default();
            }
        }
        if let Some(z) = &pd.promotion_zone {
            let zl = ctx.at(z.span());
            let white = zone(&ctx, &topology, zl, &f("promotion_zone"), z.get_ref())?;
            let black = match &pd.promotion_zone_black {
                Some(zb) => zone(
                    &ctx,
                    &topology,
                    ctx.at(zb.span()),
                    &f("promotion_zone_black"),
                    zb.get_ref(),
                )?,
                None => white
                    .iter()
                    .map(|s| {
                        let sq = topology.parse_square(s).expect("checked");
                        topology.square_name(mirror(sq))
                    })
                    .collect(),
            };
            p.zone = [white, black];
        }
        if !p.promotes_to.is_empty() && p.zone[0].is_empty() {
            return Err(ctx.err(
                line,
                &f("promotion_zone"),
                format!("{} promotes but has no promotion_zone", p.name),
            ));
        }
        match existing {
            Some(j) => pieces[j] = p,
            None => pieces.push(p),
        }
    }
    drop(mirror);
    if pieces.is_empty() {
        return Err(ctx.err(None, "pieces", "no pieces defined"));
    }
    if pieces.len() > MAX_PIECES {
        return Err(ctx.err(
            pieces[MAX_PIECES].line,
            "pieces",
            format!(
                "{} piece kinds; at most {MAX_PIECES} are supported",
                pieces.len()
            ),
        ));
    }
    // A name is a CSV column and a key of the piece values: one piece each.
    for (j, b) in pieces.iter().enumerate() {
        if let Some(a) = pieces[..j].iter().find(|a| a.name == b.name) {
            let m = format!(
                "{:?} names two pieces ({} and {})",
                b.name, a.letter, b.letter
            );
            return Err(ctx.err(b.line.or(a.line), "pieces", m));
        }
    }
    let royals: Vec<&PieceM> = pieces.iter().filter(|p| p.royal).collect();
    match royals.len() {
        0 | 1 => {}
        _ => {
            return Err(ctx.err(
                royals[1].line,
                "pieces",
                format!(
                    "{} royal pieces ({}); at most one is supported",
                    royals.len(),
                    royals
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
    }
    let has = |c: char| pieces.iter().any(|p| p.letter == c);

    // Promotion: one zone and one list of choices shared by every promoting piece.
    let promoting: Vec<&PieceM> = pieces
        .iter()
        .filter(|p| !p.promotes_to.is_empty())
        .collect();
    let rd = doc.rules.as_ref();
    let base_promo = base.and_then(|(_, s)| s.promotion.as_ref());
    let promotion = match promoting.first() {
        None => None,
        Some(first) => {
            for p in &promoting[1..] {
                if p.promotes_to != first.promotes_to || p.zone != first.zone {
                    return Err(ctx.err(
                        p.line,
                        "pieces",
                        format!(
                            "{} and {} promote differently; promoting pieces share one zone and one list of choices",
                            first.name, p.name
                        ),
                    ));
                }
            }
            for p in &promoting {
                for &c in &p.promotes_to {
                    if !has(c) {
                        return Err(ctx.err(
                            p.line,
                            "promotes_to",
                            format!("{} promotes to {c}, which is no piece here", p.name),
                        ));
                    }
                    if pieces.iter().any(|q| q.letter == c && q.royal) {
                        return Err(ctx.err(
                            p.line,
                            "promotes_to",
                            format!("{} promotes to the royal piece {c}", p.name),
                        ));
                    }
                }
            }
            Some(PromotionRule {
                pieces: leak_chars(promoting.iter().map(|p| p.letter).collect()),
                zone: [
                    first.zone[0].iter().map(|s| leak(s.clone())).collect(),
                    first.zone[1].iter().map(|s| leak(s.clone())).collect(),
                ],
                choices: leak_chars(first.promotes_to.clone()),
                mandatory: rd
                    .and_then(|r| r.promotion_mandatory)
                    .or(base_promo.map(|p| p.mandatory))
                    .unwrap_or(true),
                only_lost: rd
                    .and_then(|r| r.promotion_only_lost)
                    .or(base_promo.map(|p| p.only_lost))
                    .unwrap_or(false),
            })
        }
    };

    // Setup.
    let (start, setup_line): (String, Line) = match &doc.setup {
        Some(s) => (s.get_ref().trim().to_string(), ctx.at(s.span())),
        None => match base {
            Some((_, spec)) if doc.board.is_none() => (spec.start.to_string(), None),
            _ => {
                return Err(ctx.err(
                    None,
                    "setup",
                    "missing: give the start position (`setup = \"...\"`)",
                ))
            }
        },
    };
    check_setup(&ctx, &topology, &pieces, &start, setup_line)?;

    // Rules.
    let bs = base.map(|(_, s)| s);
    let fen_style = match rd.and_then(|r| r.position_format.as_ref()) {
        Some(f) => match f.get_ref().as_str() {
            "fen" => FenStyle::Chess,
            "plain" => FenStyle::Plain,
            other => {
                return Err(ctx.err(
                    ctx.at(f.span()),
                    "rules.position_format",
                    format!("{other:?}: expected \"fen\" or \"plain\""),
                ))
            }
        },
        None => bs.map_or(FenStyle::Chess, |s| s.fen_style),
    };
    let double_step = match rd.and_then(|r| r.double_step.as_ref()) {
        Some(d) if d.get_ref().is_empty() => None,
        Some(d) => {
            let dl = ctx.at(d.span());
            let l = letter(&ctx, dl, "rules.double_step", d.get_ref())?;
            if !has(l) {
                return Err(ctx.err(dl, "rules.double_step", format!("no piece with letter {l}")));
            }
            let Some(rank) = rd.and_then(|r| r.double_step_rank.as_ref()) else {
                return Err(ctx.err(
                    dl,
                    "rules.double_step_rank",
                    "missing: the rank (White's, 1-based) the double step starts from",
                ));
            };
            let r = *rank.get_ref();
            if r < 1 || r > ranks as u32 {
                return Err(ctx.err(
                    ctx.at(rank.span()),
                    "rules.double_step_rank",
                    format!("rank {r} is not on a board of {ranks} ranks"),
                ));
            }
            Some(DoubleStep {
                letter: l,
                ranks: [r as i16 - 1, i16::from(ranks) - r as i16],
                en_passant: rd.and_then(|r| r.en_passant).unwrap_or(true),
                first_rank: [false; 2],
            })
        }
        None => bs.and_then(|s| s.double_step).map(|mut d| {
            if let Some(ep) = rd.and_then(|r| r.en_passant) {
                d.en_passant = ep;
            }
            d
        }),
    };
    let double_step = match rd.and_then(|r| r.double_step_first_rank.as_ref()) {
        None => double_step,
        Some(f) => {
            let fl = ctx.at(f.span());
            let field = "rules.double_step_first_rank";
            let Some(mut d) = double_step else {
                return Err(ctx.err(fl, field, "there is no double step (rules.double_step)"));
            };
            d.first_rank = [false; 2];
            for side in f.get_ref() {
                match side.as_str() {
                    "white" => d.first_rank[0] = true,
                    "black" => d.first_rank[1] = true,
                    other => {
                        return Err(ctx.err(
                            fl,
                            field,
                            format!("{other:?}: expected \"white\" or \"black\""),
                        ))
                    }
                }
            }
            Some(d)
        }
    };
    if let Some(d) = double_step {
        if !has(d.letter) {
            return Err(ctx.err(
                None,
                "rules.double_step",
                format!("the inherited double step is {}'s, which is removed; set double_step = \"\" or another piece", d.letter),
            ));
        }
    }
    let castling = match rd.and_then(|r| r.castling.as_ref()) {
        Some(list) => castling(&ctx, &topology, &start, list, &has)?,
        None => bs.map(|s| s.castling.clone()).unwrap_or_default(),
    };
    for c in &castling {
        if !has(c.rook_letter) {
            return Err(ctx.err(
                None,
                "rules.castling",
                format!(
                    "the inherited castling moves piece {}, which is removed; set castling = []",
                    c.rook_letter
                ),
            ));
        }
    }
    if !castling.is_empty() && !pieces.iter().any(|p| p.royal) {
        return Err(ctx.err(
            None,
            "rules.castling",
            "castling moves the royal piece, and there is none: set castling = []",
        ));
    }
    if !castling.is_empty() && fen_style == FenStyle::Plain {
        return Err(ctx.err(
            None,
            "rules.position_format",
            "castling needs position_format = \"fen\" (the plain format has no castling field)",
        ));
    }
    let reset_by: Vec<char> = match rd.and_then(|r| r.move_rule_resets.as_ref()) {
        Some(v) => {
            let vl = ctx.at(v.span());
            let mut out = Vec::new();
            for s in v.get_ref() {
                let l = letter(&ctx, vl, "rules.move_rule_resets", s)?;
                if !has(l) {
                    return Err(ctx.err(
                        vl,
                        "rules.move_rule_resets",
                        format!("no piece with letter {l}"),
                    ));
                }
                out.push(l);
            }
            out
        }
        None => bs
            .map(|s| {
                s.clock
                    .reset_by
                    .iter()
                    .copied()
                    .filter(|&c| has(c))
                    .collect()
            })
            .unwrap_or_default(),
    };
    let stalemate = match rd.and_then(|r| r.stalemate.as_ref()) {
        Some(s) => end_value(&ctx, s, "rules.stalemate", "the stalemated side")?,
        None => bs.map_or(EndValue::Draw, |s| s.stalemate),
    };
    let inherited = bs.map_or(RepetitionRule::THREEFOLD, |s| s.repetition);
    let repetition = RepetitionRule {
        occurrences: match rd.and_then(|r| r.repetition.as_ref()) {
            None => inherited.occurrences,
            Some(r) => match *r.get_ref() {
                RepetitionDoc::Rule(true) => RepetitionRule::THREEFOLD.occurrences,
                RepetitionDoc::Rule(false) => RepetitionRule::NONE.occurrences,
                RepetitionDoc::Occurrences(n) if n >= 2 => n,
                RepetitionDoc::Occurrences(n) => {
                    return Err(ctx.err(
                        ctx.at(r.span()),
                        "rules.repetition",
                        format!("{n}: expected true, false or the occurrence that ends the game (2 or more)"),
                    ))
                }
            },
        },
        result: match rd.and_then(|r| r.repetition_value.as_ref()) {
            Some(s) => end_value(&ctx, s, "rules.repetition_value", "the side to move")?,
            None => inherited.result,
        },
    };
    let move_rule_plies = match rd.and_then(|r| r.move_rule) {
        Some(m) => m.saturating_mul(2),
        None => bs.map_or(100, |s| s.move_rule_plies),
    };

    let end = super::ends::end_rules(&ctx, rd, bs.map(|s| &s.end), &topology, &pieces)?;
    let must_capture = rd
        .and_then(|r| r.must_capture)
        .or(bs.map(|s| s.must_capture))
        .unwrap_or(false);
    // The dead-position shortcuts assume checkmate is the only win: a King that can still
    // reach its flag region, or give a check, is not dead, nor is a lone piece that may be
    // forced to capture. Inherited, they are dropped.
    let insufficient_material = match rd.and_then(|r| r.insufficient_material) {
        Some(true) if !end.is_empty() || must_capture => {
            return Err(ctx.err(
                None,
                "rules.insufficient_material",
                "the dead-position draw cannot go with a flag, check-count or extinction rule, or compulsory captures (such positions are not dead)",
            ))
        }
        Some(v) => v,
        None => end.is_empty() && !must_capture && bs.is_some_and(|s| s.insufficient_material),
    };

    let mut notes: Vec<&'static str> = Vec::new();
    notes.push(leak(match base {
        Some((k, _)) => format!("[V] defined in the file {origin}, inheriting {}", k.name()),
        None => format!("[V] defined in the file {origin}"),
    }));
    for n in doc.notes.iter().flatten() {
        notes.push(leak(n.clone()));
    }
    let drops = match rd.and_then(|r| r.drops) {
        Some(true) => Some(DropRule { checks: true }),
        Some(false) => None,
        None => bs.and_then(|s| s.drops),
    };
    let drops = match (drops, rd.and_then(|r| r.drop_checks)) {
        (Some(d), checks) => Some(DropRule {
            checks: checks.unwrap_or(d.checks),
        }),
        (None, Some(_)) => {
            return Err(ctx.err(
                None,
                "rules.drop_checks",
                "only with drops (give `drops = true`)",
            ))
        }
        (None, None) => None,
    };
    let spec = VariantSpec {
        name: leak(n.clone()),
        title: leak(doc.title.clone().unwrap_or_else(|| n.clone())),
        rules_file: leak(origin.to_string()),
        topology,
        pieces: pieces
            .iter()
            .map(|p| PieceSpec {
                name: leak(p.name.clone()),
                letter: p.letter,
                betza: leak(p.betza.clone()),
                royal: p.royal,
                value: p.value,
                extra: (),
            })
            .collect(),
        start: leak(start),
        fen_style,
        double_step,
        promotion,
        castling,
        clock: ClockRule {
            reset_by: leak_chars(reset_by),
            promotion_resets: rd
                .and_then(|r| r.promotion_resets_clock)
                .or(bs.map(|s| s.clock.promotion_resets))
                .unwrap_or(true),
        },
        move_rule_plies,
        repetition,
        stalemate,
        insufficient_material,
        notes: Box::leak(notes.into_boxed_slice()),
        max_plies: bs.map_or(crate::variants::DEFAULT_MAX_PLIES, |s| s.max_plies),
        end,
        drops,
        must_capture,
    };
    Ok(ParsedVariant { spec, setup_line })
}

/// An end's value for the side it concerns (`what`), read from `field`.
pub(super) fn end_value(
    ctx: &Ctx,
    s: &toml::Spanned<String>,
    field: &str,
    what: &str,
) -> Result<EndValue, VariantFileError> {
    EndValue::named(s.get_ref()).ok_or_else(|| {
        ctx.err(
            ctx.at(s.span()),
            field,
            format!(
                "{:?}: expected \"loss\", \"win\" or \"draw\" (for {what})",
                s.get_ref()
            ),
        )
    })
}
