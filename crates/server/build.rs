// The page's files are embedded: rebuild when any of them changes, is added or removed.
fn main() {
    println!("cargo:rerun-if-changed=web");
}
