//! euphoria: see `tabletop_fuzz::games::card_data` for the input and what is checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tabletop_fuzz::games::card_data::<euphoria::Euphoria>(data);
});
