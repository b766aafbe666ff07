//! A board as SVG: every site of a [`Layout`] with its seeds (dots while they are few), its
//! count and its label, the players' names, and a text alternative (`<title>`, `<desc>`).
//!
//! The same drawing is the board of the HTML replay, whose script changes only the sites'
//! counts, dots, classes and `data-` attributes: the structure and the classes named here are
//! what it relies on.

use std::fmt::Write;

use super::layout::{
    BoardState, Layout, MAX_DOTS, Mark, Outline, Owner, Place, Seat, Shape, SiteKind, SiteState,
    count_text, dots,
};

/// Pixels per layout unit.
pub const SCALE: f64 = 24.0;

/// The Okabe–Ito palette, safe for colour-blind readers: one colour per player (blue and
/// vermillion for the first two, the pair most readers tell apart).
pub const PLAYER_COLOURS: [&str; 6] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];

/// A number in SVG units, with at most two decimals.
pub fn num(v: f64) -> String {
    let s = format!("{:.2}", v * SCALE);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The style sheet of the drawing (the HTML replay adds its own on top).
fn style() -> String {
    let mut css = String::from(concat!(
        ".board{fill:#f3e7cf;stroke:#7a5c2e;stroke-width:2}",
        ".divider{stroke:#7a5c2e;stroke-width:1.5;stroke-dasharray:4 4}",
        ".well{fill:#fffaf0;stroke:#666;stroke-width:3}",
        ".owner-none .well{stroke:#666;stroke-dasharray:7 4}",
        ".dot,.heap{fill:#3d2b1f}",
        ".count{font:700 17px system-ui,sans-serif;fill:#1a1a1a;text-anchor:middle;dominant-baseline:central}",
        ".label{font:13px system-ui,sans-serif;fill:#4d4d4d;text-anchor:middle;dominant-baseline:central}",
        ".store .count,.reserve .count,.sink .count{font-size:22px}",
        ".seat{font:700 17px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;fill:#1a1a1a}",
        ".seat .turn{font-weight:400;visibility:hidden}.seat.to-move .turn{visibility:visible}",
        ".cross{stroke:#4d4d4d;stroke-width:3;display:none}.closed .cross{display:inline}",
        ".closed .well{fill:#d9d9d9}",
        ".claim-ring{fill:none;stroke-width:4;stroke-dasharray:3 3;display:none}",
        ".claimed .claim-ring{display:inline}",
        ".halo{fill:none;stroke-width:5;display:none}",
    ));
    for (p, colour) in PLAYER_COLOURS.iter().enumerate() {
        let _ = write!(
            css,
            ".owner-{p} .well{{stroke:{colour}}}.claimed-by-{p} .claim-ring{{stroke:{colour}}}.seat-{p}{{fill:{colour}}}"
        );
    }
    css
}

/// A site's kind as its class and `data-kind` name it.
pub fn kind_key(kind: SiteKind) -> &'static str {
    match kind {
        SiteKind::Hole => "hole",
        SiteKind::Store => "store",
        SiteKind::Reserve => "reserve",
        SiteKind::Sink => "sink",
    }
}

/// The classes of a site's group: its kind, owner and marks.
pub fn site_classes(kind: SiteKind, state: &SiteState) -> String {
    let mut classes = format!("site {} owner-{}", kind_key(kind), state.owner.key());
    for m in &state.marks {
        classes.push(' ');
        classes.push_str(&m.key());
        if let Mark::ClaimedBy(_) = m {
            classes.push_str(" claimed");
        }
    }
    classes
}

/// A site's seeds in words, for its tooltip and the text alternative.
pub fn site_words(label: &str, state: &SiteState, seats: &[Seat]) -> String {
    let mut s = match state.seeds {
        1 => format!("{label}: 1 seed"),
        n => format!("{label}: {n} seeds"),
    };
    for m in &state.marks {
        match m {
            Mark::Closed => s.push_str(", closed"),
            Mark::ClaimedBy(p) => match seats.iter().find(|seat| seat.player == *p) {
                Some(seat) => {
                    let _ = write!(s, ", claimed by {}", seat.name);
                }
                None => {
                    let _ = write!(s, ", claimed by player {}", u32::from(*p) + 1);
                }
            },
        }
    }
    s
}

/// The seeds inside a hole: dots while they are few, else a heap.
fn seeds_inside(out: &mut String, cx: f64, cy: f64, r: f64, seeds: u32) {
    if seeds > MAX_DOTS {
        let _ = write!(
            out,
            r#"<circle class="heap" cx="{}" cy="{}" r="{}"/>"#,
            num(cx),
            num(cy),
            num(r * 0.62)
        );
        return;
    }
    let (dot, at) = dots(seeds);
    for p in at {
        let _ = write!(
            out,
            r#"<circle class="dot" cx="{}" cy="{}" r="{}"/>"#,
            num(cx + p.x * r),
            num(cy + p.y * r),
            num(dot * r)
        );
    }
}

/// What the page and the test read, and the drawing shows.
pub struct Texts<'a> {
    /// The drawing's title (`<title>`), e.g. the ruleset's name and the position.
    pub title: &'a str,
    /// An `id` prefix, so that several drawings can share a page.
    pub id: &'a str,
}

/// The board in `state`, drawn as one `<svg>` element (a complete SVG document).
pub fn board(layout: &Layout, state: &BoardState, texts: &Texts<'_>) -> String {
    let id = escape(texts.id);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-labelledby="{id}-title {id}-desc" id="{id}">"#,
        w = num(layout.width),
        h = num(layout.height),
    );
    let _ = writeln!(
        out,
        r#"<title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc><style>{}</style>"#,
        escape(texts.title),
        escape(&describe(layout, state)),
        style()
    );
    match layout.outline {
        Outline::Rect { from, to } => {
            let _ = writeln!(
                out,
                r#"<rect class="board" x="{}" y="{}" width="{}" height="{}" rx="{}"/>"#,
                num(from.x),
                num(from.y),
                num(to.x - from.x),
                num(to.y - from.y),
                num(1.2)
            );
        }
        Outline::Circle { at, r } => {
            let _ = writeln!(
                out,
                r#"<circle class="board" cx="{}" cy="{}" r="{}"/>"#,
                num(at.x),
                num(at.y),
                num(r)
            );
        }
    }
    for (a, b) in &layout.dividers {
        let _ = writeln!(
            out,
            r#"<line class="divider" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(a.x),
            num(a.y),
            num(b.x),
            num(b.y)
        );
    }
    let empty = SiteState {
        seeds: 0,
        owner: Owner::Nobody,
        marks: Vec::new(),
    };
    for (i, site) in layout.sites.iter().enumerate() {
        let st = state.sites.get(i).unwrap_or(&empty);
        let (cx, cy) = (site.at.x, site.at.y);
        let _ = write!(
            out,
            r#"<g class="{}" data-site="{i}" data-label="{}" data-kind="{}" data-seeds="{}" data-owner="{}" data-marks="{}"><title>{}</title>"#,
            site_classes(site.kind, st),
            escape(&site.label),
            kind_key(site.kind),
            st.seeds,
            st.owner.key(),
            st.marks
                .iter()
                .map(|m| m.key())
                .collect::<Vec<_>>()
                .join(" "),
            escape(&site_words(&site.label, st, &layout.seats)),
        );
        match site.shape {
            Shape::Circle { r } => {
                let _ = write!(
                    out,
                    r#"<circle class="halo" cx="{x}" cy="{y}" r="{hr}"/><circle class="claim-ring" cx="{x}" cy="{y}" r="{cr}"/><circle class="well" cx="{x}" cy="{y}" r="{r}"/>"#,
                    x = num(cx),
                    y = num(cy),
                    r = num(r),
                    hr = num(r * 1.22),
                    cr = num(r * 1.1),
                );
                let d = r * 0.6;
                let _ = write!(
                    out,
                    r#"<path class="cross" d="M{} {}L{} {}M{} {}L{} {}"/>"#,
                    num(cx - d),
                    num(cy - d),
                    num(cx + d),
                    num(cy + d),
                    num(cx + d),
                    num(cy - d),
                    num(cx - d),
                    num(cy + d)
                );
                let _ = write!(
                    out,
                    r#"<g class="seeds" data-cx="{}" data-cy="{}" data-r="{}">"#,
                    num(cx),
                    num(cy),
                    num(r)
                );
                if !st.marks.contains(&Mark::Closed) {
                    seeds_inside(&mut out, cx, cy, r, st.seeds);
                }
                out.push_str("</g>");
            }
            Shape::Capsule { w, h } => {
                let _ = write!(
                    out,
                    r#"<rect class="halo" x="{}" y="{}" width="{}" height="{}" rx="{}"/><rect class="well" x="{}" y="{}" width="{}" height="{}" rx="{}"/>"#,
                    num(cx - w / 2.0 - 0.2),
                    num(cy - h / 2.0 - 0.2),
                    num(w + 0.4),
                    num(h + 0.4),
                    num(w.min(h) / 2.0 + 0.2),
                    num(cx - w / 2.0),
                    num(cy - h / 2.0),
                    num(w),
                    num(h),
                    num(w.min(h) / 2.0),
                );
            }
        }
        let _ = writeln!(
            out,
            r#"<text class="count" x="{}" y="{}">{}</text><text class="label" x="{}" y="{}">{}</text></g>"#,
            num(site.count_at.x),
            num(site.count_at.y),
            count_text(st),
            num(site.label_at.x),
            num(site.label_at.y),
            escape(&site.label)
        );
    }
    for seat in &layout.seats {
        let to_move = if state.to_move == Some(seat.player) {
            " to-move"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text class="seat seat-{p}{to_move}" data-player="{p}" x="{}" y="{}">{}<tspan class="turn"> · to move</tspan></text>"#,
            num(seat.at.x),
            num(seat.at.y),
            escape(&seat.name),
            p = seat.player,
        );
    }
    out.push_str("</svg>");
    out
}

/// The board in words, row by row (or ring, then what lies at the ends and beside it), and
/// who is to move: the drawing's text alternative.
pub fn describe(layout: &Layout, state: &BoardState) -> String {
    let empty = SiteState {
        seeds: 0,
        owner: Owner::Nobody,
        marks: Vec::new(),
    };
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (site, st) in layout
        .sites
        .iter()
        .zip(state.sites.iter().chain(std::iter::repeat(&empty)))
    {
        let group = group_name(site.place);
        let words = site_words(&site.label, st, &layout.seats);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, list)) => list.push(words),
            None => groups.push((group, vec![words])),
        }
    }
    let mut s: Vec<String> = groups
        .into_iter()
        .map(|(g, list)| format!("{}: {}.", capitalise(&g), list.join("; ")))
        .collect();
    if let Some(p) = state.to_move
        && let Some(seat) = layout.seats.iter().find(|s| s.player == p)
    {
        s.push(format!("{} to move.", seat.name));
    }
    s.join(" ")
}

/// The heading a site is listed under in the text alternative.
pub fn group_name(place: Place) -> String {
    match place {
        Place::Row { row, .. } => format!("row {}, left to right", u32::from(row) + 1),
        Place::Ring { ring, .. } => {
            format!(
                "ring {}, counter-clockwise from the bottom",
                u32::from(ring) + 1
            )
        }
        Place::End => "stores".to_string(),
        Place::Aside => "beside the board".to_string(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
