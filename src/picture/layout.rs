//! The board as a drawing: sites (holes, stores, reserves, sinks) with coordinates, kinds,
//! labels and owners, worked out once from the rules' geometry. Renderers ([`super::svg`],
//! [`super::html`]) read only a [`Layout`] and a [`BoardState`] (seeds, owners and marks per
//! site), never the geometry, so a new board shape needs only a new mapping onto
//! [`RowsSpec`] or [`RingSpec`].
//!
//! Units: a hole's radius is 1; x grows to the right, y downwards, as in SVG.

use crate::engine::Position;
use crate::rules::{NOBODY, Player, Pos, Rules};
use crate::ruleset::{Destination, Remaining, StoreSide};

/// A point in layout units.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

const fn pt(x: f64, y: f64) -> Point {
    Point { x, y }
}

/// What a site is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SiteKind {
    /// A hole on the board.
    Hole,
    /// A store on the sowing track.
    Store,
    /// Seeds a player holds beside the board.
    Reserve,
    /// Seeds a player's captures removed from the game.
    Sink,
}

/// Who a site belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Owner {
    Player(Player),
    /// A neutral site, owned by nobody.
    Nobody,
}

impl Owner {
    /// The owner of a position in the rules' numbering ([`NOBODY`] and beyond are nobody).
    pub fn of(player: Player) -> Owner {
        if player < NOBODY {
            Owner::Player(player)
        } else {
            Owner::Nobody
        }
    }

    /// As the page and the SVG name it: the player's index, or `none`.
    pub fn key(self) -> String {
        match self {
            Owner::Player(p) => p.to_string(),
            Owner::Nobody => "none".into(),
        }
    }
}

/// Where a site sits in the board's structure (the coordinates say where it is drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Place {
    /// Row `row` from the top, column `column` from the left.
    Row { row: u8, column: u8 },
    /// Position `index` of ring `ring`, counter-clockwise from the bottom.
    Ring { ring: u8, index: u8 },
    /// At an end of the rows, or in the middle of a ring (stores).
    End,
    /// Beside the board (reserves, sinks).
    Aside,
}

/// The outline of a site.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum Shape {
    Circle {
        r: f64,
    },
    /// A rounded rectangle `w` wide and `h` high, centred on the site.
    Capsule {
        w: f64,
        h: f64,
    },
}

/// One place that holds seeds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Site {
    pub kind: SiteKind,
    /// As the notation writes it: `s3`, `S*`; `removed S` for a sink.
    pub label: String,
    /// The owner at the start (a [`BoardState`] may say otherwise).
    pub owner: Owner,
    /// The engine's position, for holes and stores on the track.
    pub pos: Option<Pos>,
    pub place: Place,
    /// The centre.
    pub at: Point,
    pub shape: Shape,
    /// Where the count is written.
    pub count_at: Point,
    /// Where the label is written.
    pub label_at: Point,
}

/// A player's name and where it is written.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Seat {
    pub player: Player,
    pub name: String,
    pub at: Point,
}

/// The board's background.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum Outline {
    /// A rounded rectangle with corners `from` and `to`.
    Rect {
        from: Point,
        to: Point,
    },
    Circle {
        at: Point,
        r: f64,
    },
}

/// A board laid out for drawing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub outline: Outline,
    pub sites: Vec<Site>,
    /// One per player, in player order.
    pub seats: Vec<Seat>,
    /// Lines between the players' sides of the board.
    pub dividers: Vec<(Point, Point)>,
}

/// A lasting mark on a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Mark {
    /// Off the track (the notation's `x`).
    Closed,
    /// A player's claimed hole: every seed sown there is theirs.
    ClaimedBy(Player),
}

impl Mark {
    /// As the page's `data-marks` and the SVG's classes name it.
    pub fn key(self) -> String {
        match self {
            Mark::Closed => "closed".into(),
            Mark::ClaimedBy(p) => format!("claimed-by-{p}"),
        }
    }
}

/// What a site holds at one moment.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SiteState {
    pub seeds: u32,
    pub owner: Owner,
    pub marks: Vec<Mark>,
}

/// A position as the renderers see it: per site of a [`Layout`], in its order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoardState {
    pub sites: Vec<SiteState>,
    /// The player to move, if the game goes on.
    pub to_move: Option<Player>,
}

/// Hole radius (the unit), the distance between neighbouring holes, and the room a row's
/// count and label take on its caption side.
const R: f64 = 1.0;
const PITCH: f64 = 2.5;
const CAPTION: f64 = 1.9;
const COUNT_GAP: f64 = 0.6;
const LABEL_GAP: f64 = 1.45;
/// Room between two rows with no caption between them, and around the whole drawing.
const GAP: f64 = 0.5;
const MARGIN: f64 = 0.8;
/// A store at a row end, and a tray beside the board.
const END_W: f64 = 2.2;
const TRAY_W: f64 = 6.0;
const TRAY_H: f64 = 1.8;
/// The line a seat's name takes.
const SEAT_H: f64 = 1.4;

/// A site before it is placed.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteSpec {
    pub kind: SiteKind,
    pub label: String,
    pub owner: Owner,
    pub pos: Option<Pos>,
}

/// Which side of a row its counts and labels go (the side its owner sits, as a rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caption {
    Above,
    Below,
}

/// A row of sites, left to right as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct RowSpec {
    pub sites: Vec<SiteSpec>,
    pub caption: Caption,
}

/// An edge of the drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Top,
    Bottom,
}

/// A board of rows (2, 3, 4 ...), with stores at the row ends and trays (reserves, sinks)
/// and player names along the top and bottom edges.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowsSpec {
    /// From the top.
    pub rows: Vec<RowSpec>,
    /// Stores at the left and the right end, top to bottom.
    pub left: Vec<SiteSpec>,
    pub right: Vec<SiteSpec>,
    /// Trays along an edge, left to right.
    pub trays: Vec<(Edge, SiteSpec)>,
    /// Each player's name and the edge it is written along, in player order.
    pub seats: Vec<(Player, String, Edge)>,
    /// After which rows (0-based) a line divides the players' sides.
    pub dividers: Vec<usize>,
}

/// A board of holes in a ring, counter-clockwise from the bottom, with stores in the
/// middle, trays below it and each player's name outside their holes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RingSpec {
    pub holes: Vec<SiteSpec>,
    pub middle: Vec<SiteSpec>,
    pub trays: Vec<SiteSpec>,
    pub seats: Vec<(Player, String)>,
}

/// Lays out a board of rows.
pub fn rows(spec: &RowsSpec) -> Layout {
    let columns = spec.rows.iter().map(|r| r.sites.len()).max().unwrap_or(0);
    let tray_row = |edge: Edge| spec.trays.iter().filter(move |(e, _)| *e == edge);
    let seat_on = |edge: Edge| spec.seats.iter().any(|(_, _, e)| *e == edge);
    let band = |edge: Edge| {
        let trays = if tray_row(edge).next().is_some() {
            TRAY_H + GAP
        } else {
            0.0
        };
        let seat = if seat_on(edge) { SEAT_H } else { 0.0 };
        trays + seat
    };
    let ends = |side: &[SiteSpec]| if side.is_empty() { 0.0 } else { END_W + GAP };
    let left_w = ends(&spec.left);
    let right_w = ends(&spec.right);
    let rows_w = columns as f64 * PITCH;
    let width = MARGIN * 2.0 + GAP * 2.0 + left_w + rows_w + right_w;
    let x0 = MARGIN + GAP + left_w;
    let board_top = MARGIN + band(Edge::Top);
    let mut y = board_top + GAP;
    let mut sites = Vec::new();
    let mut dividers = Vec::new();
    let mut centres = Vec::new();
    for (row, spec_row) in spec.rows.iter().enumerate() {
        let above = if spec_row.caption == Caption::Above {
            CAPTION
        } else {
            GAP
        };
        let below = if spec_row.caption == Caption::Below {
            CAPTION
        } else {
            GAP
        };
        let cy = y + above + R;
        centres.push(cy);
        // A shorter row is centred under the longest.
        let indent = (columns - spec_row.sites.len().min(columns)) as f64 * PITCH / 2.0;
        let toward = if spec_row.caption == Caption::Above {
            -1.0
        } else {
            1.0
        };
        for (column, s) in spec_row.sites.iter().enumerate() {
            let cx = x0 + indent + PITCH * (column as f64 + 0.5);
            sites.push(Site {
                kind: s.kind,
                label: s.label.clone(),
                owner: s.owner,
                pos: s.pos,
                place: Place::Row {
                    row: u8::try_from(row).unwrap_or(u8::MAX),
                    column: u8::try_from(column).unwrap_or(u8::MAX),
                },
                at: pt(cx, cy),
                shape: Shape::Circle { r: R },
                count_at: pt(cx, cy + toward * (R + COUNT_GAP)),
                label_at: pt(cx, cy + toward * (R + LABEL_GAP)),
            });
        }
        y = cy + R + below;
        if spec.dividers.contains(&row) {
            dividers.push((pt(x0, y), pt(x0 + rows_w, y)));
        }
    }
    let board_bottom = y + GAP;
    // Stores span the rows' holes, shared out when an end has several.
    let first = centres.first().copied().unwrap_or(board_top + R) - R;
    let last = centres.last().copied().unwrap_or(board_top + R) + R;
    let place_ends = |sites: &mut Vec<Site>, specs: &[SiteSpec], cx: f64| {
        let n = specs.len().max(1) as f64;
        let h = (last - first - GAP * (n - 1.0)) / n;
        for (i, s) in specs.iter().enumerate() {
            let top = first + i as f64 * (h + GAP);
            let cy = top + h / 2.0;
            sites.push(Site {
                kind: s.kind,
                label: s.label.clone(),
                owner: s.owner,
                pos: s.pos,
                place: Place::End,
                at: pt(cx, cy),
                shape: Shape::Capsule { w: END_W, h },
                count_at: pt(cx, cy),
                label_at: pt(cx, top + 0.7),
            });
        }
    };
    place_ends(&mut sites, &spec.left, MARGIN + GAP + END_W / 2.0);
    place_ends(&mut sites, &spec.right, x0 + rows_w + GAP + END_W / 2.0);
    for edge in [Edge::Top, Edge::Bottom] {
        let trays: Vec<&SiteSpec> = tray_row(edge).map(|(_, s)| s).collect();
        let cy = match edge {
            Edge::Top => board_top - GAP - TRAY_H / 2.0,
            Edge::Bottom => board_bottom + GAP + TRAY_H / 2.0,
        };
        place_trays(&mut sites, &trays, width / 2.0, cy);
    }
    let height = board_bottom + band(Edge::Bottom) + MARGIN;
    let seats = spec
        .seats
        .iter()
        .map(|(player, name, edge)| Seat {
            player: *player,
            name: name.clone(),
            at: match edge {
                Edge::Top => pt(width / 2.0, MARGIN + SEAT_H / 2.0),
                Edge::Bottom => pt(width / 2.0, height - MARGIN - SEAT_H / 2.0),
            },
        })
        .collect();
    Layout {
        width,
        height,
        outline: Outline::Rect {
            from: pt(MARGIN, board_top),
            to: pt(width - MARGIN, board_bottom),
        },
        sites,
        seats,
        dividers,
    }
}

/// Trays side by side, centred on `cx`.
fn place_trays(sites: &mut Vec<Site>, trays: &[&SiteSpec], cx: f64, cy: f64) {
    let n = trays.len() as f64;
    let start = cx - (n * TRAY_W + (n - 1.0).max(0.0) * GAP) / 2.0;
    for (i, s) in trays.iter().enumerate() {
        let x = start + i as f64 * (TRAY_W + GAP) + TRAY_W / 2.0;
        sites.push(Site {
            kind: s.kind,
            label: s.label.clone(),
            owner: s.owner,
            pos: s.pos,
            place: Place::Aside,
            at: pt(x, cy),
            shape: Shape::Capsule {
                w: TRAY_W,
                h: TRAY_H,
            },
            count_at: pt(x + TRAY_W / 4.0, cy),
            label_at: pt(x - TRAY_W / 5.0, cy),
        });
    }
}

/// Lays out a ring of holes.
pub fn ring(spec: &RingSpec) -> Layout {
    let n = spec.holes.len().max(1) as f64;
    let radius = (n * PITCH / std::f64::consts::TAU).max(3.0);
    let outer = radius + R + CAPTION;
    let seat_ring = outer + SEAT_H + GAP;
    // Room for a name written across the ring's left and right edges.
    let half = seat_ring + SEAT_H * 2.5;
    let trays = if spec.trays.is_empty() {
        0.0
    } else {
        TRAY_H + GAP * 2.0
    };
    let width = 2.0 * (half + MARGIN);
    let centre = pt(width / 2.0, MARGIN + half);
    let height = 2.0 * (half + MARGIN) + trays;
    // Counter-clockwise as seen from above, from the bottom: with y downwards the angle
    // grows the other way.
    let angle = |i: f64| std::f64::consts::FRAC_PI_2 - i * std::f64::consts::TAU / n;
    let at = |a: f64, r: f64| pt(centre.x + r * a.cos(), centre.y + r * a.sin());
    let mut sites = Vec::new();
    for (i, s) in spec.holes.iter().enumerate() {
        let a = angle(i as f64);
        sites.push(Site {
            kind: s.kind,
            label: s.label.clone(),
            owner: s.owner,
            pos: s.pos,
            place: Place::Ring {
                ring: 0,
                index: u8::try_from(i).unwrap_or(u8::MAX),
            },
            at: at(a, radius),
            shape: Shape::Circle { r: R },
            count_at: at(a, radius + R + COUNT_GAP),
            label_at: at(a, radius + R + LABEL_GAP),
        });
    }
    let middle = spec.middle.len() as f64;
    let h = ((radius - R - GAP) * 2.0 / middle.max(1.0) - GAP).clamp(1.0, 4.0);
    for (i, s) in spec.middle.iter().enumerate() {
        let cy = centre.y + (i as f64 - (middle - 1.0) / 2.0) * (h + GAP);
        sites.push(Site {
            kind: s.kind,
            label: s.label.clone(),
            owner: s.owner,
            pos: s.pos,
            place: Place::End,
            at: pt(centre.x, cy),
            shape: Shape::Capsule { w: TRAY_W * 0.6, h },
            count_at: pt(centre.x + 0.8, cy),
            label_at: pt(centre.x - 1.0, cy),
        });
    }
    let trays_y = centre.y + half + GAP + TRAY_H / 2.0;
    let tray_refs: Vec<&SiteSpec> = spec.trays.iter().collect();
    place_trays(&mut sites, &tray_refs, centre.x, trays_y);
    // A seat's name stands outside the middle of its holes.
    let seats = spec
        .seats
        .iter()
        .map(|(player, name)| {
            let own: Vec<f64> = (0u32..)
                .zip(&spec.holes)
                .filter(|(_, s)| s.owner == Owner::Player(*player))
                .map(|(i, _)| f64::from(i))
                .collect();
            let mid = if own.is_empty() {
                0.0
            } else {
                own.iter().sum::<f64>() / own.len() as f64
            };
            Seat {
                player: *player,
                name: name.clone(),
                at: at(angle(mid), seat_ring),
            }
        })
        .collect();
    Layout {
        width,
        height,
        outline: Outline::Circle {
            at: centre,
            r: outer + GAP,
        },
        sites,
        seats,
        dividers: Vec::new(),
    }
}

/// A player's name as the seat shows it.
fn seat_name(p: Player) -> String {
    crate::notation::player_name(p).to_string()
}

/// The site of a position on the board.
fn board_site(rules: &Rules, pos: Pos, kind: SiteKind) -> SiteSpec {
    let g = &rules.geometry;
    SiteSpec {
        kind,
        label: g.label(pos),
        owner: Owner::of(g.owner_of(pos)),
        pos: Some(pos),
    }
}

/// A player's seeds beside the board: held (`S*`, as the notation writes them) or removed.
fn tray(p: Player, kind: SiteKind) -> SiteSpec {
    let letter = if p == 0 { "S" } else { "N" };
    SiteSpec {
        kind,
        label: match kind {
            SiteKind::Sink => format!("removed {letter}"),
            SiteKind::Hole | SiteKind::Store | SiteKind::Reserve => format!("{letter}*"),
        },
        owner: Owner::Player(p),
        pos: None,
    }
}

/// Whether seeds can leave the game under these rules (so the board shows where they go).
pub fn removes_seeds(rules: &Rules) -> bool {
    let captures = rules
        .drop_captures
        .iter()
        .chain(&rules.lap_captures)
        .chain(&rules.move_captures);
    let endings = [Some(rules.no_move), Some(rules.endless_move), rules.cycle]
        .into_iter()
        .flatten()
        .chain(rules.end_when.iter().map(|(_, e)| *e));
    captures.map(|c| c.to).any(|to| to == Destination::Removed)
        || endings
            .map(|e| e.remaining)
            .any(|r| r == Remaining::Removed)
}

/// The board of these rules as they stand, as it stands between the players: North's rows on
/// top, from North's right to left, so that holes face each other; South's below. `sinks`
/// adds a tray per player for the seeds their captures removed from the game.
pub fn of_rules(rules: &Rules, sinks: bool) -> Layout {
    let g = &rules.geometry;
    let per = usize::from(g.holes_per_row);
    let site = |p: Pos| board_site(rules, p, SiteKind::Hole);
    // Rows as labelled (homes), whoever owns their holes: neutral holes and holes given
    // by `[board] owners` are drawn where their labels put them.
    let holes = |home: u8| -> Vec<SiteSpec> { g.home_holes(home).map(site).collect() };
    let row = |sites: Vec<SiteSpec>, caption| RowSpec { sites, caption };
    let (south, north) = (holes(0), holes(1));
    let reversed = |v: &[SiteSpec]| v.iter().rev().cloned().collect::<Vec<_>>();
    let board_rows = if g.rows == 4 {
        // Each player's holes: the outer row from their left, then the inner row back.
        let (s_outer, s_inner) = south.split_at(per.min(south.len()));
        let (n_outer, n_inner) = north.split_at(per.min(north.len()));
        vec![
            row(reversed(n_outer), Caption::Above),
            row(n_inner.to_vec(), Caption::Above),
            row(reversed(s_inner), Caption::Below),
            row(s_outer.to_vec(), Caption::Below),
        ]
    } else if g.rows == 3 {
        // Each player's own row, then their half of the middle row from its end on their
        // right: North's half is on South's left.
        let (s_row, s_middle) = south.split_at(per.min(south.len()));
        let (n_row, n_middle) = north.split_at(per.min(north.len()));
        let middle = n_middle
            .iter()
            .chain(s_middle.iter().rev())
            .cloned()
            .collect();
        vec![
            row(reversed(n_row), Caption::Above),
            row(middle, Caption::Below),
            row(s_row.to_vec(), Caption::Below),
        ]
    } else {
        vec![
            row(reversed(&north), Caption::Above),
            row(south, Caption::Below),
        ]
    };
    // The line between the players' sides; on three rows, one each side of the middle row.
    let divider = (board_rows.len() / 2).saturating_sub(1);
    let dividers = if g.rows == 3 {
        vec![0, 1]
    } else {
        vec![divider]
    };
    let store = |p: Player| g.store_of(p).map(|s| board_site(rules, s, SiteKind::Store));
    // South's store is at the end of South's row its side names; North's, facing it, at the
    // other end.
    let (left_player, right_player) = match rules_store_side(rules) {
        StoreSide::Right => (1, 0),
        StoreSide::Left => (0, 1),
    };
    let mut trays = Vec::new();
    for (p, edge) in [(1, Edge::Top), (0, Edge::Bottom)] {
        if g.store_of(p).is_none() {
            trays.push((edge, tray(p, SiteKind::Reserve)));
        }
        if sinks {
            trays.push((edge, tray(p, SiteKind::Sink)));
        }
    }
    rows(&RowsSpec {
        rows: board_rows,
        left: store(left_player).into_iter().collect(),
        right: store(right_player).into_iter().collect(),
        trays,
        seats: vec![
            (0, seat_name(0), Edge::Bottom),
            (1, seat_name(1), Edge::Top),
        ],
        dividers,
    })
}

/// Which end of its owner's row South's store is at, read off the track: a store on the
/// left comes before South's first hole.
fn rules_store_side(rules: &Rules) -> StoreSide {
    let g = &rules.geometry;
    match (g.store_of(0), g.home_holes(0).next()) {
        (Some(store), Some(first)) if store < first => StoreSide::Left,
        _ => StoreSide::Right,
    }
}

impl Layout {
    /// The site drawing an engine position.
    pub fn site_of(&self, pos: Pos) -> Option<usize> {
        self.sites.iter().position(|s| s.pos == Some(pos))
    }

    /// A player's reserve or sink.
    pub fn tray_of(&self, kind: SiteKind, p: Player) -> Option<usize> {
        self.sites
            .iter()
            .position(|s| s.kind == kind && s.owner == Owner::Player(p))
    }

    /// Where a player's banked seeds go: their store on the track, else their reserve.
    pub fn bank_of(&self, rules: &Rules, p: Player) -> Option<usize> {
        match rules.geometry.store_of(p) {
            Some(s) => self.site_of(s),
            None => self.tray_of(SiteKind::Reserve, p),
        }
    }

    /// The engine's position as the renderers see it.
    pub fn state(&self, pos: &Position, to_move: Option<Player>) -> BoardState {
        let sites = self
            .sites
            .iter()
            .map(|site| {
                let player = match site.owner {
                    Owner::Player(p) => usize::from(p),
                    Owner::Nobody => usize::MAX,
                };
                let seeds = match (site.kind, site.pos) {
                    (SiteKind::Hole | SiteKind::Store, Some(p)) => u32::from(pos.seeds(p)),
                    (SiteKind::Reserve, _) => pos.reserve.get(player).copied().unwrap_or(0),
                    (SiteKind::Sink, _) => pos.taken.get(player).copied().unwrap_or(0),
                    (SiteKind::Hole | SiteKind::Store, None) => 0,
                };
                let mut marks = Vec::new();
                if let Some(p) = site.pos {
                    if pos.closed & crate::rules::bit(p) != 0 {
                        marks.push(Mark::Closed);
                    }
                    for (claimer, &claim) in (0u8..).zip(&pos.claims) {
                        if claim == p {
                            marks.push(Mark::ClaimedBy(claimer));
                        }
                    }
                }
                SiteState {
                    seeds,
                    owner: site.owner,
                    marks,
                }
            })
            .collect();
        BoardState { sites, to_move }
    }

    /// In the layout's order, the sites' labels (for text alternatives and tests).
    pub fn labels(&self) -> Vec<&str> {
        self.sites.iter().map(|s| s.label.as_str()).collect()
    }
}

/// The most seeds a hole shows as dots; past it, a heap and the count.
pub const MAX_DOTS: u32 = 19;

/// Where `n` seeds sit in a hole of radius 1 (empty past [`MAX_DOTS`]), and their radius.
/// A few seeds make a regular figure; more fill the hole in a sunflower pattern, which keeps
/// them evenly apart at any count.
pub fn dots(n: u32) -> (f64, Vec<Point>) {
    use std::f64::consts::{FRAC_PI_2, PI, TAU};
    let ring = |k: u32, r: f64, from: f64| -> Vec<Point> {
        (0..k)
            .map(|i| {
                let a = from + f64::from(i) * TAU / f64::from(k);
                pt(r * a.cos(), r * a.sin())
            })
            .collect()
    };
    match n {
        0 => (0.0, Vec::new()),
        1 => (0.2, vec![pt(0.0, 0.0)]),
        2..=6 => (0.18, ring(n, 0.42, -FRAC_PI_2)),
        7 => {
            let mut v = vec![pt(0.0, 0.0)];
            v.extend(ring(6, 0.46, -FRAC_PI_2));
            (0.16, v)
        }
        8..=MAX_DOTS => {
            let golden = PI * (3.0 - 5f64.sqrt());
            let c = 0.74 / f64::from(n).sqrt();
            let v = (0..n)
                .map(|k| {
                    let r = c * (f64::from(k) + 0.5).sqrt();
                    let a = f64::from(k) * golden;
                    pt(r * a.cos(), r * a.sin())
                })
                .collect();
            (0.12, v)
        }
        _ => (0.0, Vec::new()),
    }
}

/// The count as it is written: `x` for a closed hole (as in the notation).
pub fn count_text(state: &SiteState) -> String {
    if state.marks.contains(&Mark::Closed) {
        "x".into()
    } else {
        state.seeds.to_string()
    }
}
