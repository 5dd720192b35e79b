//! Runtime invariant (ARCHITECTURE.md, runtime/): "validating a valid object performs no heap allocation". A counting global allocator measures the
//! allocations made while validating valid objects (create and update); the expected count is exactly zero.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use vgc_example_generated::widgets::v1::Widget;
use vgc_runtime::{ErrorList, Operation, Path, Validate};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the measuring thread counts: the test harness allocates on other threads meanwhile.
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

// Delegates to the system allocator and only counts calls made on the measuring thread.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTING.try_with(std::cell::Cell::get).unwrap_or(false) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn valid_objects_validate_without_allocating() {
    let json = r#"{"kind":"Widget","metadata":{"name":"w1","namespace":"ns","labels":{"app":"web","example.com/tier":"front"},"uid":"123e4567-e89b-12d3-a456-426614174000"},
        "spec":{"displayName":"web","replicas":3,"description":"hello","color":"Red","ports":[{"name":"http","number":80},{"name":"https","number":443}],
        "hosts":["a.example.com","b.example.com"],"annotations":{"example.com/a":"1"},"owner":"me","tags":["x"],
        "token":"123e4567-e89b-12d3-a456-426614174000","backends":[{"host":"db.example.com"}],
        "endpoint":{"host":"h"},"source":{"type":"Git","git":{"url":"https://example.com/r.git"},"tag":"v1"}}}"#;
    let w: Widget = serde_json::from_str(json).expect("valid JSON");
    let mut changed = w.clone();
    if let Some(spec) = changed.spec.as_mut() {
        spec.replicas = Some(4);
        spec.ports[1].number = 8443;
        if let Some(src) = spec.source.as_mut() {
            src.tag = Some("v2".into());
        }
    }
    let create = Operation::create();
    let update = Operation::update();
    let status = Operation {
        subresources: vec!["status".into()],
        ..Operation::update()
    };
    let mut errs = ErrorList::new();
    COUNTING.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::Relaxed);
    w.validate_into(None, &create, &Path::Root, &mut errs);
    changed.validate_into(Some(&w), &update, &Path::Root, &mut errs);
    let allocations = ALLOCS.load(Ordering::Relaxed) - before;
    // The root entry point (subresource routing included) allocates nothing either.
    let before_root = ALLOCS.load(Ordering::Relaxed);
    let create_errs = w.validate(None, &create);
    let mid = ALLOCS.load(Ordering::Relaxed);
    let update_errs = changed.validate(Some(&w), &status);
    let root_allocations = ALLOCS.load(Ordering::Relaxed) - before_root;
    COUNTING.with(|c| c.set(false));
    let root_errs = (create_errs, update_errs);
    assert_eq!(
        mid - before_root,
        0,
        "the root validate on create allocated"
    );
    assert!(
        root_errs.0.is_empty() && root_errs.1.is_empty(),
        "{root_errs:?}"
    );
    assert_eq!(root_allocations, 0, "the root validate allocated");
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(allocations, 0, "validating valid objects allocated");
}
