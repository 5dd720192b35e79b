//! Recursion on input depth without stack overflow (R32).
//!
//! Generated code validates and compares a value of a recursive type (`type Node struct { Next *Node }`) with one
//! call per level of the value. Objects decoded from JSON are at most 128 levels deep (serde_json's limit), but
//! objects built in Rust can be arbitrarily deep; on a 2 MiB thread stack about a thousand levels used to abort the
//! process. Every such call goes through [`grow`], which checks the remaining stack and, when it runs low,
//! continues on a new segment allocated on the heap ([`stacker`], the crate rustc uses for the same purpose).
//! Depth is then bounded by memory, not by the thread's stack.
//!
//! Not covered: the derived `Clone`, `Debug`, `Serialize` and the compiler's drop glue of the generated types,
//! which recurse without checks (see `docs/reliability.md`, "Limits").

/// Stack left below which [`grow`] switches to a new segment, in bytes. Generous: one level of a generated
/// validation function, with its error-building calls, stays well below it in debug builds.
pub const RED_ZONE: usize = 128 * 1024;

/// Size of each new stack segment, in bytes.
pub const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, first moving to a fresh heap-allocated stack segment of [`SEGMENT`] bytes when less than
/// [`RED_ZONE`] bytes of the current stack are left. Returns what `f` returns; panics in `f` propagate.
#[inline]
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

#[cfg(test)]
mod tests {
    use super::grow;

    /// A recursion a million levels deep on a 256 KiB thread: would overflow without [`grow`].
    #[test]
    fn r32_deep_recursion_runs_on_a_small_thread() {
        fn depth(n: u32) -> u32 {
            grow(|| if n == 0 { 0 } else { 1 + depth(n - 1) })
        }
        let t = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| depth(1_000_000))
            .expect("spawn");
        assert_eq!(t.join().expect("no overflow"), 1_000_000);
    }
}
