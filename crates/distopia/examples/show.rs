//! Prints a few positions of a random advanced game: `cargo run -p distopia --example show`.
use distopia::{Border, Config, Distopia};
use engine::prelude::*;
use engine::Viewer;

fn main() {
    let Ok(mut game) = Distopia::new(&Config::advanced(Border::Coast), 4) else {
        return;
    };
    let mut legal = Vec::new();
    let mut step = 0;
    while game.to_act().is_some() {
        if step % 25 == 0 {
            println!("{}", game.view(Viewer::Seat(0)));
            game.legal_actions(&mut legal);
            let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
            println!("legal: {}\n", texts.join(", "));
        }
        game.legal_actions(&mut legal);
        let a = legal[step % legal.len()];
        if game.apply(a).is_err() {
            return;
        }
        step += 1;
    }
    println!("{}", game.view(Viewer::Spectator));
}
