//! The `[rules]` lines of a section's drop keys and its game-end keys (flag, check count,
//! extinction), each with the key it came from.

use super::{key_err, list, region, At, Board, Entry, Keys, SetOf, Sided, VariantFileError};

/// The drop keys as `[rules]` lines: crazyhouse's `pieceDrops` with `capturesToHand` is the
/// engine's `drops`, `dropChecks` its `drop_checks`. Either of the pair alone (placement's
/// drops from a given hand, captures kept in hand without drops) is refused, naming the key.
pub(super) fn drop_rules(keys: &Keys) -> Result<Vec<(String, Option<At>)>, VariantFileError> {
    let drops = keys.bool("pieceDrops", false)?;
    let to_hand = keys.bool("capturesToHand", false)?;
    let checks = keys.bool("dropChecks", true)?;
    let entry = |k: &str| keys.get(k).expect("read above");
    match (drops, to_hand) {
        (false, false) => Ok(Vec::new()),
        (true, true) => {
            let mut lines = vec![("drops = true".to_string(), Some(entry("pieceDrops").at.clone()))];
            if !checks {
                lines.push((
                    "drop_checks = false".to_string(),
                    Some(entry("dropChecks").at.clone()),
                ));
            }
            Ok(lines)
        }
        (true, false) => Err(key_err(
            entry("pieceDrops"),
            "\"true\" without capturesToHand: not supported (the engine's drops are crazyhouse's, captured pieces to hand)",
        )),
        (false, true) => Err(key_err(
            entry("capturesToHand"),
            "\"true\" without pieceDrops: not supported (the engine's drops are crazyhouse's)",
        )),
    }
}

/// The flag, check-count and extinction keys (`crate::ends`) as `[rules]` lines with their
/// origins. `fen` is the start position's fields, whose `W+B` field gives the check count.
pub(super) fn end_rules<'k>(
    keys: &'k Keys,
    board: &Board,
    fen: &[&str],
    set: &SetOf<'_>,
    sided: &Sided<'_, 'k>,
) -> Result<Vec<(String, Option<At>)>, VariantFileError> {
    let mut lines = Vec::new();
    let at = |e: &Entry| Some(e.at.clone());

    // Capture the flag (flagMove = false, Fairy-Stockfish's default, as DEFAULT_ONLY checks).
    let piece = sided("flagPiece")?;
    let region_of = |side: &str| -> Result<Option<(Vec<String>, &Entry)>, VariantFileError> {
        match keys
            .get(&format!("flagRegion{side}"))
            .or(keys.get("flagRegion"))
        {
            None => Ok(None),
            Some(e) => Ok(Some((region(e, board)?, e))),
        }
    };
    let (white, black) = (region_of("White")?, region_of("Black")?);
    let any_region = [&white, &black]
        .iter()
        .any(|r| r.as_ref().is_some_and(|(c, _)| !c.is_empty()));
    // Without flagPiece, or with `*`, any piece is a flag (Fairy-Stockfish's default).
    let flag = |l: &str, origin: Option<At>, lines: &mut Vec<(String, Option<At>)>| {
        lines.push((format!("flag_piece = \"{l}\""), origin.clone()));
        for (name, r) in [("flag_region", &white), ("flag_region_black", &black)] {
            let (cells, at) = match r {
                Some((c, e)) => (c.clone(), at(e)),
                None => (Vec::new(), origin.clone()),
            };
            lines.push((format!("{name} = {}", list(cells.into_iter())), at));
        }
    };
    match piece {
        Some(e) if e.value.trim() == "*" => {
            if any_region {
                flag("*", at(e), &mut lines);
            }
        }
        Some(e) => {
            let letters = set(e)?;
            let [l] = letters.as_slice() else {
                return Err(key_err(
                    e,
                    format!("{:?}: expected one piece letter", e.value),
                ));
            };
            if any_region {
                flag(&l.to_string(), at(e), &mut lines);
            }
        }
        None => {
            if let Some((_, e)) = white
                .iter()
                .chain(black.iter())
                .find(|(c, _)| !c.is_empty())
            {
                flag("*", at(e), &mut lines);
            }
        }
    }

    // How many flag pieces win, and a blocked region: with a flag only (Fairy-Stockfish
    // reads them only for one), which the lines above write exactly where a region is.
    if let Some((n, e)) = keys.int("flagPieceCount")? {
        if n == 0 {
            return Err(key_err(e, "0: a flag needs at least one piece"));
        }
        if any_region {
            lines.push((format!("flag_count = {n}"), at(e)));
        }
    }
    let blocked_win = keys.bool("flagPieceBlockedWin", false)?;
    if let (true, Some(e)) = (any_region, keys.get("flagPieceBlockedWin")) {
        lines.push((format!("flag_blocked_win = {blocked_win}"), at(e)));
    }

    // N-check: the count is the start position's (White's), 1 where it has none, as
    // Fairy-Stockfish reads a FEN without one.
    if keys.bool("checkCounting", false)? {
        let e = keys.get("checkCounting").expect("read above");
        let n = match fen.iter().skip(2).find(|f| f.contains('+')) {
            None => 1,
            Some(f) => match f.split_once('+').map(|(w, _)| w.parse::<u8>()) {
                Some(Ok(n)) if (1..=crate::ends::MAX_CHECKS).contains(&n) => n,
                _ => {
                    let m = format!(
                        "the start position's check count {f:?} is not `W+B` with counts 1 to {}",
                        crate::ends::MAX_CHECKS
                    );
                    return Err(match keys.get("startFen") {
                        Some(s) => key_err(s, m),
                        None => key_err(e, m),
                    });
                }
            },
        };
        lines.push((format!("check_count = {n}"), at(e)));
    }

    // Extinction: in force where extinctionValue is not `none` and kinds are listed.
    let value = match keys.get("extinctionValue") {
        None => None,
        Some(e) => match e.value.as_str() {
            "none" => None,
            v @ ("loss" | "win" | "draw") => Some((v, e)),
            v => {
                return Err(key_err(
                    e,
                    format!("{v:?}: expected loss, win, draw or none"),
                ))
            }
        },
    };
    let types = keys.get("extinctionPieceTypes");
    let count = |k: &str| -> Result<(u32, Option<At>), VariantFileError> {
        match keys.int(k)? {
            None => Ok((0, None)),
            Some((n, e)) if n <= 255 => Ok((n, at(e))),
            Some((_, e)) => Err(key_err(e, "at most 255")),
        }
    };
    let (own, own_at) = count("extinctionPieceCount")?;
    let (opp, opp_at) = count("extinctionOpponentPieceCount")?;
    if let (Some((v, ve)), Some(te)) = (value, types) {
        // `*`: all of a side's pieces together (Fairy-Stockfish's ALL_PIECES), Horde's.
        let mut kinds = set(&Entry {
            value: te.value.replace('*', ""),
            ..te.clone()
        })?;
        if te.value.contains('*') {
            kinds.insert(0, '*');
        }
        if !kinds.is_empty() {
            lines.push((
                format!("extinction = {}", list(kinds.iter().map(|c| c.to_string()))),
                at(te),
            ));
            lines.push((format!("extinction_value = \"{v}\""), at(ve)));
            lines.push((format!("extinction_count = {own}"), own_at));
            lines.push((format!("extinction_opponent_count = {opp}"), opp_at));
        }
    }
    Ok(lines)
}
