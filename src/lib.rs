//! sow: mancala rules as data.
//!
//! The pipeline, one module per stage:
//! ruleset text ([`ruleset`]) → expressions ([`expr`]) → checked, compiled rules ([`check`],
//! [`rules`]) → the generic [`engine`] → [`trace`] events → [`render`]ing as text or JSON.

pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod expr;
pub mod rules;
pub mod ruleset;
pub mod trace;
pub mod catalog;
pub mod notation;
pub mod render;
pub mod schema;
pub mod record;
