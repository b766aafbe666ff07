//! Termination signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP (a closed terminal) are caught,
//! so that what the user gave (a game record being written) is closed properly before sow
//! exits. Only `play --record` asks for this; everything else keeps the default (sow dies).

/// Runs `then` with the signal's number and name on a thread of its own when the first of
/// the three signals arrives. `then` should end the process.
#[cfg(unix)]
pub fn on_termination(
    then: impl FnOnce(i32, &'static str) + Send + 'static,
) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let name = match signal {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            then(signal, name);
        }
    });
    Ok(())
}

/// Elsewhere the default stays: the record written so far is kept all the same, as it is
/// written move by move.
#[cfg(not(unix))]
pub fn on_termination(
    _then: impl FnOnce(i32, &'static str) + Send + 'static,
) -> std::io::Result<()> {
    Ok(())
}
