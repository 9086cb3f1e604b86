//! The engine signature must match `bench/signature.txt` (see that file).

use std::process::Command;

#[test]
fn bench_signature_matches_the_recorded_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/signature.txt");
    let expected: Vec<(String, u64)> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (v, n) = l.split_once(' ').unwrap();
            (v.to_string(), n.trim().parse().unwrap())
        })
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["bench", "--json", "--no-perft"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let got: Vec<(String, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["variant"].as_str().unwrap().to_string(),
                r["nodes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got, expected,
        "engine signature changed: if intended, update bench/signature.txt"
    );
}
