//! The server: see `tabletop_fuzz::server::socket` for the input and what is checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tabletop_fuzz::server::socket(data);
});
