//! sow: mancala rules as data.
//!
//! The pipeline, one module per stage:
//! ruleset text ([`ruleset`]) → expressions ([`expr`]) → checked, compiled rules ([`check`],
//! [`rules`]) → the generic [`engine`] → [`trace`] events → [`render`]ing as text or JSON.
//!
//! Rulesets, records and set-up positions are user input, and the engine runs on what they
//! say: no `unwrap`, `expect` or indexing that could panic, anywhere in the library (unit tests
//! excepted). The lints below keep it so, in every module, new ones included.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod catalog;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod explain;
pub mod expr;
pub mod notation;
pub mod picture;
pub mod players;
pub mod record;
pub mod render;
pub mod rules;
pub mod ruleset;
pub mod schema;
pub mod trace;
