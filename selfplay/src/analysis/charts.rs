//! The report's SVG charts: values with intervals, and histograms. Every coordinate written
//! is a finite number: a row without a value is drawn as its text, never at `NaN`.

use crate::analysis::viewer::esc;

/// One row of an interval chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartRow {
    /// Written left of the axis.
    pub label: String,
    /// The marker's place; `None`: no marker, only `text` (a value left out or not
    /// estimable).
    pub value: Option<f64>,
    /// The whisker; `None`: a plain marker (the unit, 1 by definition).
    pub interval: Option<(f64, f64)>,
    /// Written right of the whisker (or where the marker would be).
    pub text: String,
    /// The row's tooltip (the full note); empty for none.
    pub title: String,
}

impl ChartRow {
    /// A value with its interval, labelled with the value to `digits` decimals.
    pub fn estimate(label: String, value: f64, low: f64, high: f64, digits: usize) -> Self {
        ChartRow {
            label,
            value: Some(value),
            interval: Some((low, high)),
            text: format!("{value:.digits$}"),
            title: String::new(),
        }
    }

    /// The places the row draws (value and interval ends), to fit the axis to.
    fn extent(&self) -> impl Iterator<Item = f64> {
        let (l, h) = self.interval.unzip();
        [self.value, l, h]
            .into_iter()
            .flatten()
            .filter(|v| v.is_finite())
    }
}

/// An axis from a multiple of a round step (1, 2, 2.5 or 5 times a power of ten) below
/// every value of `rows` and of `include` to one above them: (low, high, step).
pub fn axis(rows: &[ChartRow], include: &[f64]) -> (f64, f64, f64) {
    let values: Vec<f64> = rows
        .iter()
        .flat_map(ChartRow::extent)
        .chain(include.iter().copied())
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let raw = ((hi - lo) / 4.0).max(1e-9);
    // A power of ten below 1 divides, so that 2.5 / 10 is exactly 0.25.
    let e = raw.log10().floor() as i32;
    let scaled = |m: f64| {
        if e < 0 {
            m / 10f64.powi(-e)
        } else {
            m * 10f64.powi(e)
        }
    };
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(scaled)
        .find(|s| *s >= raw - 1e-12)
        .unwrap_or(scaled(10.0));
    let (lo, hi) = (
        (lo / step + 1e-9).floor() * step,
        (hi / step - 1e-9).ceil() * step,
    );
    (lo, if hi > lo { hi } else { lo + step }, step)
}

/// A tick's text: no more decimals than the step needs (0, 0.25, 0.5 ...).
fn tick_text(v: f64, step: f64) -> String {
    let digits = (0..4)
        .find(|d| ((step * 10f64.powi(*d)).round() - step * 10f64.powi(*d)).abs() < 1e-9)
        .unwrap_or(4) as usize;
    let t = format!("{v:.digits$}");
    if t.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        "0".into()
    } else {
        t
    }
}

/// A horizontal dot-and-whisker chart (class `chart`): one row per label, on the axis
/// `(low, high, step)` of [`axis`], with a dashed reference line at `reference`.
pub fn interval_chart(rows: &[ChartRow], axis: (f64, f64, f64), reference: Option<f64>) -> String {
    let (lo, hi, step) = axis;
    // The label column is as wide as the longest label (about 7 px a character), so labels
    // such as `am-chess-46 (default v default)` are never clipped; the right margin as wide
    // as the longest text written right of a whisker at the axis' end.
    let chars = |f: fn(&ChartRow) -> &str| {
        rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0) as f64
    };
    let (left, width, row_h) = ((chars(|r| &r.label) * 7.0 + 16.0).max(120.0), 420.0, 26.0);
    let right = (chars(|r| &r.text) * 7.0 + 16.0).max(60.0);
    let height = 40.0 + row_h * rows.len() as f64;
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / (hi - lo) * width;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{}" height="{height}" font-family="sans-serif" font-size="12">"#,
        left + width + right
    );
    let ticks = ((hi - lo) / step).round() as usize;
    for i in 0..=ticks {
        let v = lo + step * i as f64;
        s += &format!(
            r##"<line x1="{0:.1}" y1="10" x2="{0:.1}" y2="{1}" stroke="#ddd"/><text x="{0:.1}" y="{2}" text-anchor="middle" fill="#555">{3}</text>"##,
            x(v),
            height - 22.0,
            height - 8.0,
            tick_text(v, step)
        );
    }
    if let Some(r) = reference.filter(|r| r.is_finite()) {
        s += &format!(
            r##"<line x1="{0:.1}" y1="10" x2="{0:.1}" y2="{1}" stroke="#888" stroke-dasharray="4 3"/>"##,
            x(r),
            height - 22.0
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = 24.0 + row_h * i as f64;
        s += "<g>";
        if !r.title.is_empty() {
            s += &format!("<title>{}</title>", esc(&r.title));
        }
        s += &format!(
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            left - 8.0,
            y + 4.0,
            esc(&r.label)
        );
        let text_x = match (r.value.filter(|v| v.is_finite()), r.interval) {
            (Some(v), Some((l, h))) if l.is_finite() && h.is_finite() => {
                s += &format!(
                    r##"<line x1="{:.1}" y1="{y}" x2="{:.1}" y2="{y}" stroke="#1f77b4" stroke-width="2"/><circle cx="{:.1}" cy="{y}" r="4" fill="#1f77b4"/>"##,
                    x(l),
                    x(h),
                    x(v)
                );
                x(h).max(x(v)) + 6.0
            }
            (Some(v), _) => {
                s += &format!(
                    r##"<rect x="{:.1}" y="{}" width="8" height="8" fill="#1f77b4"/>"##,
                    x(v) - 4.0,
                    y - 4.0
                );
                x(v) + 8.0
            }
            (None, _) => left + 4.0,
        };
        let style = if r.value.is_some() {
            r##"fill="#333""##
        } else {
            r##"fill="#777" font-style="italic""##
        };
        s += &format!(
            r#"<text x="{text_x:.1}" y="{}" {style}>{}</text></g>"#,
            y + 4.0,
            esc(&r.text)
        );
    }
    s + "</svg>"
}

/// A histogram of (bin start, count) with bins of `width`, with a count axis on the left.
pub fn histogram_chart(title: &str, bins: &[(u32, u64)], width: u32) -> String {
    let (w, h, left, right) = (330.0, 170.0, 44.0, 12.0);
    let (top, bottom) = (24.0, h - 22.0);
    let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1);
    // Round the axis up to a tick step of 1, 2 or 5 times a power of ten.
    let step = {
        let raw = (max as f64 / 4.0).max(1.0);
        let p = 10f64.powf(raw.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * p)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * p)
    };
    let top_count = (max as f64 / step).ceil() * step;
    let y = |c: f64| bottom - (bottom - top) * c / top_count;
    let n = bins.len().max(1) as f64;
    let bw = (w - left - right) / n;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{w}" height="{h}" font-family="sans-serif" font-size="11"><text x="{left}" y="14" font-weight="bold">{}</text>"#,
        esc(title)
    );
    let mut tick = 0.0;
    while tick <= top_count + 1e-9 {
        s += &format!(
            r##"<line x1="{left}" x2="{x2}" y1="{yt:.1}" y2="{yt:.1}" stroke="#e5e5e5"/><text x="{xt}" y="{yl:.1}" text-anchor="end" fill="#555">{tick}</text>"##,
            x2 = w - right,
            yt = y(tick),
            xt = left - 4.0,
            yl = y(tick) + 4.0
        );
        tick += step;
    }
    s += &format!(
        r##"<line x1="{left}" x2="{left}" y1="{top}" y2="{bottom}" stroke="#555"/><text x="10" y="{0:.1}" transform="rotate(-90 10 {0:.1})" text-anchor="middle" fill="#555">games</text>"##,
        (top + bottom) / 2.0
    );
    for (i, (start, count)) in bins.iter().enumerate() {
        let bh = bottom - y(*count as f64);
        s += &format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#ff7f0e"><title>{start}-{}: {count}</title></rect>"##,
            left + bw * i as f64,
            bottom - bh,
            (bw - 1.0).max(1.0),
            start + width - 1
        );
    }
    if let (Some(first), Some(last)) = (bins.first(), bins.last()) {
        s += &format!(
            r##"<text x="{left}" y="{}" fill="#555">{}</text><text x="{}" y="{}" text-anchor="end" fill="#555">{} plies</text>"##,
            h - 6.0,
            first.0,
            w - right,
            h - 6.0,
            last.0 + width
        );
    }
    s + "</svg>"
}

#[cfg(test)]
mod tests {
    use super::{axis, histogram_chart, interval_chart, ChartRow};

    /// The numbers of attribute `name` in an SVG, in order.
    fn attr(svg: &str, name: &str) -> Vec<f64> {
        svg.split(&format!(" {name}=\""))
            .skip(1)
            .filter_map(|s| s.split('"').next()?.parse().ok())
            .collect()
    }

    fn text_row(label: &str, value: Option<f64>, text: &str) -> ChartRow {
        ChartRow {
            label: label.into(),
            value,
            interval: None,
            text: text.into(),
            title: String::new(),
        }
    }

    /// A long label gets a label column wide enough for it, and an interval reaching below
    /// zero is drawn to its low end when the axis starts below zero.
    #[test]
    fn interval_chart_fits_labels_and_negative_lows() {
        let label = "am-chess-46 (default v default)".to_string();
        let rows = [ChartRow::estimate(label.clone(), 0.4, -0.5, 1.2, 3)];
        let svg = interval_chart(&rows, (-1.0, 2.0, 1.0), None);
        let left = label.len() as f64 * 7.0 + 16.0;
        assert!(
            svg.contains(&format!("<text x=\"{}\"", left - 8.0)),
            "{svg}"
        );
        // The whisker: x1 at -0.5 lies a sixth of the axis right of its start (-1).
        let x1 = attr(&svg, "x1");
        let whisker = x1.last().copied().unwrap();
        assert!((whisker - (left + 420.0 / 6.0)).abs() < 0.05, "{svg}");
    }

    /// Piece values as the report draws them: the unit a plain marker at 1, a royal piece
    /// and a value not estimable as text, and an axis that covers every value drawn; no
    /// coordinate is NaN.
    #[test]
    fn rows_without_a_value_or_interval_are_text_not_nan() {
        let rows = [
            text_row("pawn", Some(1.0), "1 (the unit)"),
            ChartRow::estimate("rook".into(), 4.8, 4.1, 5.6, 2),
            text_row("king", None, "left out"),
            text_row("archbishop", None, "not estimable"),
        ];
        let ax = axis(&rows, &[0.0, 1.0]);
        assert_eq!(ax, (0.0, 6.0, 2.0));
        let svg = interval_chart(&rows, ax, Some(1.0));
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        // One whisker and one dot (the rook), one square (the unit), and the texts.
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1, "{svg}");
        for t in [">1 (the unit)<", ">4.80<", ">left out<", ">not estimable<"] {
            assert!(svg.contains(t), "{t}: {svg}");
        }
        // The rook's high end (5.6) lies inside the axis, not clamped to its end.
        let x2 = attr(&svg, "x2");
        let left = "archbishop".len() as f64 * 7.0 + 16.0;
        let left = left.max(120.0);
        assert!(
            x2.iter()
                .any(|x| (x - (left + 420.0 * 5.6 / 6.0)).abs() < 0.05),
            "{svg}"
        );
        // The tick labels: 0, 2, 4, 6.
        for t in ["0", "2", "4", "6"] {
            assert!(svg.contains(&format!("fill=\"#555\">{t}</text>")), "{t}");
        }
    }

    /// Axes run from a round step below the values to one above them.
    #[test]
    fn axes_are_round_and_cover_the_values() {
        let rows = [ChartRow::estimate("x".into(), 0.4, 0.25, 0.59, 3)];
        assert_eq!(axis(&rows, &[0.0, 1.0]), (0.0, 1.0, 0.25));
        let rows = [ChartRow::estimate("x".into(), 12.52, -0.7, 14.8, 2)];
        assert_eq!(axis(&rows, &[0.0, 1.0]), (-5.0, 15.0, 5.0));
        assert_eq!(axis(&[], &[]), (0.0, 1.0, 0.25));
    }

    /// Histograms have a count axis whose top tick covers the largest bin.
    #[test]
    fn histogram_has_a_count_axis() {
        let svg = histogram_chart("chess", &[(0, 3), (20, 17), (40, 6)], 20);
        for tick in ["0", "5", "10", "15", "20"] {
            assert!(
                svg.contains(&format!("fill=\"#555\">{tick}</text>")),
                "{tick}: {svg}"
            );
        }
        assert!(svg.contains(">games</text>"));
        assert_eq!(svg.matches("<rect").count(), 3);
    }
}
