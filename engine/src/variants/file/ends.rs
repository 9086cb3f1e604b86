//! The `[rules]` keys of the variant's own ends (flag, check count, extinction: issue #56),
//! checked against the board and the pieces.

use super::board::{mirror_fn, zone};
use super::doc::{leak, leak_chars, letter, Ctx, PieceM, RulesDoc};
use super::VariantFileError;
use crate::ends::{EndRules, EndValue, ExtinctionRule, FlagRule, MAX_CHECKS};
use crate::geometry::Topology;

/// The end rules of `rd`, each key replacing the inherited variant's (`base`).
pub(super) fn end_rules(
    ctx: &Ctx,
    rd: Option<&RulesDoc>,
    base: Option<&EndRules>,
    topology: &Topology,
    pieces: &[PieceM],
) -> Result<EndRules, VariantFileError> {
    let mut end = base.cloned().unwrap_or_default();
    let Some(rd) = rd else {
        return Ok(end);
    };
    let piece = |line, field: &str, s: &str| -> Result<char, VariantFileError> {
        let l = letter(ctx, line, field, s)?;
        if pieces.iter().any(|p| p.letter == l) {
            Ok(l)
        } else {
            Err(ctx.err(line, field, format!("no piece with letter {l}")))
        }
    };

    // Flag: the piece and White's region, Black's the mirror unless given.
    if let Some(fp) = &rd.flag_piece {
        let line = ctx.at(fp.span());
        if fp.get_ref().is_empty() {
            end.flag = None;
        } else {
            let l = match fp.get_ref().as_str() {
                "*" => None,
                s => Some(piece(line, "rules.flag_piece", s)?),
            };
            let Some(r) = &rd.flag_region else {
                return Err(ctx.err(
                    line,
                    "rules.flag_region",
                    "missing: the cells (or ranks) where the flag piece wins",
                ));
            };
            let white = zone(
                ctx,
                topology,
                ctx.at(r.span()),
                "rules.flag_region",
                r.get_ref(),
            )?;
            let black = match &rd.flag_region_black {
                Some(b) => zone(
                    ctx,
                    topology,
                    ctx.at(b.span()),
                    "rules.flag_region_black",
                    b.get_ref(),
                )?,
                None => {
                    let mirror = mirror_fn(topology);
                    white
                        .iter()
                        .map(|s| {
                            topology.square_name(mirror(topology.parse_square(s).expect("checked")))
                        })
                        .collect()
                }
            };
            end.flag = Some(FlagRule {
                piece: l,
                region: [
                    white.into_iter().map(leak).collect(),
                    black.into_iter().map(leak).collect(),
                ],
                count: 1,
                blocked_win: false,
            });
        }
    } else if let Some(r) = rd.flag_region.as_ref().or(rd.flag_region_black.as_ref()) {
        return Err(ctx.err(
            ctx.at(r.span()),
            "rules.flag_piece",
            "missing: a flag region needs the flag piece",
        ));
    }

    // How many flag pieces win, and the blocked region: of the flag written or inherited.
    let flag_field = |line, field| {
        ctx.err(
            line,
            field,
            "needs a flag: the variant has no flag_piece and flag_region",
        )
    };
    if let Some(c) = &rd.flag_count {
        let line = ctx.at(c.span());
        let f = end
            .flag
            .as_mut()
            .ok_or_else(|| flag_field(line, "rules.flag_count"))?;
        f.count = match u8::try_from(*c.get_ref()) {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(ctx.err(
                    line,
                    "rules.flag_count",
                    format!("{}: expected 1 to 255 flag pieces", c.get_ref()),
                ))
            }
        };
    }
    if let Some(b) = &rd.flag_blocked_win {
        let line = ctx.at(b.span());
        end.flag
            .as_mut()
            .ok_or_else(|| flag_field(line, "rules.flag_blocked_win"))?
            .blocked_win = *b.get_ref();
    }

    if let Some(c) = &rd.check_count {
        let n = *c.get_ref();
        end.check_count = match n {
            0 => None,
            n if n <= u32::from(MAX_CHECKS) => Some(n as u8),
            _ => {
                return Err(ctx.err(
                    ctx.at(c.span()),
                    "rules.check_count",
                    format!("{n}: at most {MAX_CHECKS} checks (0: no check counting)"),
                ))
            }
        };
    }

    if let Some(x) = &rd.extinction {
        let line = ctx.at(x.span());
        let kinds = x
            .get_ref()
            .iter()
            .map(|s| match s.as_str() {
                "*" => Ok('*'),
                s => piece(line, "rules.extinction", s),
            })
            .collect::<Result<Vec<char>, _>>()?;
        let count = |v: &Option<toml::Spanned<u32>>, field: &str| match v {
            None => Ok(0),
            Some(c) => u8::try_from(*c.get_ref())
                .map_err(|_| ctx.err(ctx.at(c.span()), field, "at most 255")),
        };
        let value = match &rd.extinction_value {
            None => EndValue::Loss,
            Some(v) => super::parse::end_value(
                ctx,
                v,
                "rules.extinction_value",
                "the side whose kind died out",
            )?,
        };
        end.extinction = (!kinds.is_empty()).then(|| ExtinctionRule {
            pieces: leak_chars(kinds),
            value,
            count: 0,
            opponent_count: 0,
        });
        if let Some(e) = &mut end.extinction {
            e.count = count(&rd.extinction_count, "rules.extinction_count")?;
            e.opponent_count = count(
                &rd.extinction_opponent_count,
                "rules.extinction_opponent_count",
            )?;
        }
    } else if let Some(v) = rd
        .extinction_value
        .as_ref()
        .map(|v| v.span())
        .or(rd.extinction_count.as_ref().map(|v| v.span()))
        .or(rd.extinction_opponent_count.as_ref().map(|v| v.span()))
    {
        return Err(ctx.err(
            ctx.at(v),
            "rules.extinction",
            "missing: the extinction keys need the list of kinds (`extinction = [\"N\"]`)",
        ));
    }
    Ok(end)
}
