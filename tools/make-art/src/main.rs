//! make-art: regenerates every image under bataille's `assets/` from code, the
//! same bytes on every run (all "randomness" is a fixed-seed hash).
//!
//! Usage, from the repository root:
//!     cargo run --release --manifest-path tools/make-art/Cargo.toml
//!     cargo run --release --manifest-path tools/make-art/Cargo.toml -- --contact /tmp/contact.png

mod contact;
mod hexsides;
mod noise;
mod raster;
mod symbols;
mod tiles;
mod tiles_built;
mod tiles_land;

use std::path::{Path, PathBuf};

use noise::fbm;
use raster::{Canvas, Rgba};

/// A 256 × 256 tileable paper texture for panels and the table behind the map:
/// the noise lattice wraps at the image size, so copies join without a seam.
fn paper() -> Canvas {
    let size = 256;
    let base = Rgba::rgb8(236, 228, 204);
    let mut c = Canvas::new(size, size);
    for y in 0..size {
        for x in 0..size {
            let (fx, fy) = (x as f32, y as f32);
            let broad = fbm(fx, fy, 64.0, 3, 501, Some((4, 4))) - 0.5;
            // Fibres: noise stretched four times across, so the y period is 4 cells.
            let fibre = fbm(fx, fy * 0.25, 16.0, 2, 502, Some((16, 4))) - 0.5;
            c.px[y * size + x] = base.scaled(1.0 + broad * 0.08 + fibre * 0.03);
        }
    }
    c
}

/// Every generated image, keyed by its path under assets/ without ".png".
fn all_art() -> contact::Art {
    let mut art = contact::Art::new();
    for (name, paint) in tiles::terrain_tiles() {
        art.insert(format!("tiles/{name}"), paint());
    }
    for level in 1..=3 {
        art.insert(format!("tiles/elevation_{level}"), tiles::elevation(level));
    }
    for (name, paint) in hexsides::hexside_pieces() {
        art.insert(format!("hexsides/{name}"), paint());
    }
    for (name, mark) in symbols::unit_symbols() {
        art.insert(format!("symbols/{name}"), symbols::symbol(mark));
    }
    art.insert("ui/paper".to_string(), paper());
    art
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let contact_path = match args.as_slice() {
        [] => None,
        [flag, path] if flag == "--contact" => Some(PathBuf::from(path)),
        _ => {
            eprintln!("usage: make-art [--contact /tmp/contact.png]");
            std::process::exit(2);
        }
    };
    // The assets folder is found from this crate's own location, so the tool works
    // from any current directory.
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let art = all_art();
    let mut names: Vec<&String> = art.keys().collect();
    names.sort();
    for name in names {
        let path = assets.join(format!("{name}.png"));
        art[name].save_png(&path)?;
        println!("wrote assets/{name}.png");
    }
    if let Some(path) = contact_path {
        contact::write_contact_sheet(&art, &path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
