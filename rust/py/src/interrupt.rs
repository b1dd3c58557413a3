//! The one way a long native call (search, perft, batch) runs: interruptible by Ctrl-C, with its
//! Python callbacks on the calling thread.
//!
//! Python delivers signals to the main thread only, and only when that thread runs Python code. So the
//! work runs on a scoped worker thread while the calling thread, with the GIL released, waits for its
//! messages: each message (a search report, batch progress) is handed to a Python handler on the
//! calling thread while the worker waits for it to finish (so a handler that stops the search is
//! obeyed before the search goes on, exactly as a direct call), and every [`SIGNAL_POLL`] without a
//! message the calling thread re-attaches just long enough to run `check_signals()`. Ctrl-C (or an
//! exception from a handler) sets the call's stop flag; the work then ends within about a
//! millisecond, and the exception is raised once the worker has finished. The worker is scoped, so no
//! thread outlives the call (nothing is left running when a Python process forks).

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    thread,
    time::Duration,
};

use pyo3::prelude::*;

/// How often a waiting call looks for Ctrl-C: fast enough to feel immediate, rare enough to cost
/// nothing (one GIL round trip per 50 ms).
pub const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The worker's side of the channel: [`Outbox::send`] hands a message to the calling thread and
/// waits until its handler has run.
pub struct Outbox<M> {
    messages: mpsc::Sender<M>,
    handled: mpsc::Receiver<()>,
}

impl<M> Outbox<M> {
    /// Sends `message` to the calling thread's handler and waits until it has been handled.
    pub fn send(&self, message: M) {
        if self.messages.send(message).is_ok() {
            // An error means the calling thread is gone: nothing left to wait for.
            let _ = self.handled.recv();
        }
    }
}

/// Runs `work` on a worker thread with the GIL released, calling `handle` on this thread for each
/// message the work sends and polling for signals in between; a signal or a handler's error raises
/// `stop`, and is returned once the work has finished. A panic in the work is re-raised here (and so
/// becomes Python's `PanicException`, never an abort).
pub fn run<T, M>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce(&Outbox<M>) -> T + Send,
    handle: impl FnMut(Python<'_>, M) -> PyResult<()> + Send,
) -> PyResult<T>
where
    T: Send,
    M: Send,
{
    run_until(py, stop, None, work, handle)
}

/// [`run`], also stopped when the caller's *until* (a Python object with an ``is_set()`` method, such
/// as a ``threading.Event`` another thread sets) is found set, looked at every [`SIGNAL_POLL`].
pub fn run_until<T, M>(
    py: Python<'_>,
    stop: &AtomicBool,
    until: Option<Py<PyAny>>,
    work: impl FnOnce(&Outbox<M>) -> T + Send,
    mut handle: impl FnMut(Python<'_>, M) -> PyResult<()> + Send,
) -> PyResult<T>
where
    T: Send,
    M: Send,
{
    let mut error: Option<PyErr> = None;
    let result = py.detach(|| {
        thread::scope(|scope| {
            let (messages, inbox) = mpsc::channel();
            let (handled, acks) = mpsc::channel();
            let outbox = Outbox { messages, handled: acks };
            let worker = scope.spawn(move || work(&outbox));
            loop {
                let outcome = match inbox.recv_timeout(SIGNAL_POLL) {
                    Ok(message) => {
                        let outcome = match error {
                            None => Python::attach(|py| handle(py, message)),
                            Some(_) => Ok(()),
                        };
                        let _ = handled.send(());
                        outcome
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if error.is_none() => Python::attach(|py| {
                        py.check_signals()?;
                        if let Some(until) = &until {
                            if until.bind(py).call_method0("is_set")?.is_truthy()? {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Ok(())
                    }),
                    Err(mpsc::RecvTimeoutError::Timeout) => Ok(()),
                    // The work has returned (and dropped its outbox).
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                if let Err(e) = outcome {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    });
    match error {
        Some(e) => Err(e),
        None => Ok(result),
    }
}

/// [`run`] for work that sends no messages (perft).
pub fn run_silent<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    run(py, stop, |_: &Outbox<()>| work(), |_, ()| Ok(()))
}

/// A caller's stop object (``stop=``), checked: ``None``, or something with a callable ``is_set``.
pub fn until_arg(stop: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    match stop {
        None => Ok(None),
        Some(stop) if stop.is_none() => Ok(None),
        Some(stop) if stop.getattr("is_set").is_ok_and(|f| f.is_callable()) => {
            Ok(Some(stop.clone().unbind()))
        }
        Some(stop) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "stop must have an is_set() method (a threading.Event), got {}",
            stop.get_type().name()?
        ))),
    }
}

/// A count (perft) that Ctrl-C or the caller's *until* ([`run_until`]) stops: the work returns
/// `None` when its flag was raised, and that raises ``ValueError("perft was stopped")``.
pub fn count<T: Send>(
    py: Python<'_>,
    until: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&AtomicBool) -> Option<T> + Send,
) -> PyResult<T> {
    let until = until_arg(until)?;
    let stop = AtomicBool::new(false);
    run_until(py, &stop, until, |_: &Outbox<()>| work(&stop), |_, ()| Ok(()))?
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("perft was stopped"))
}
