//! euphoria: see `tabletop_fuzz::games::state_json` for the input and what is checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tabletop_fuzz::games::state_json::<euphoria::Euphoria>(data);
});
