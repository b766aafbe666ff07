//! sow: mancala rules as data.
//!
//! The pipeline, one module per stage:
//! ruleset text ([`ruleset`]) → expressions ([`expr`]) → checked, compiled rules ([`check`],
//! [`rules`]) → the generic [`engine`] → [`trace`] events → [`render`]ing as text or JSON.

#![forbid(unsafe_code)]

pub mod catalog;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod expr;
pub mod notation;
pub mod record;
pub mod render;
pub mod rules;
pub mod ruleset;
pub mod schema;
pub mod trace;
