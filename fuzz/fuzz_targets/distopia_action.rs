//! distopia: see `tabletop_fuzz::games::action_text` for the input and what is checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tabletop_fuzz::games::action_text::<distopia::Distopia>(data);
});
