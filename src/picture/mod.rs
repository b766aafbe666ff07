//! Pictures: a board as SVG and a replay as one self-contained HTML page.
//!
//! [`layout`] turns the rules' geometry into a renderer-neutral [`layout::Layout`] (sites
//! with coordinates, kinds, labels and owners); [`svg`] draws a layout with a position's
//! seeds, owners and marks; [`html`] builds a replay page from the engine's events.
//!
//! Positions and events come from user input: no `unwrap`, `expect` or indexing that could
//! panic.

pub mod html;
pub mod layout;
pub mod svg;
