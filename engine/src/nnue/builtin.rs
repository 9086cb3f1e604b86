//! The networks embedded in the binary: a variant's default evaluation where a network of its
//! own passed an SPRT against the linear evaluation (docs/evaluation.md, "Embedded networks").
//! Each is `data/eval/nets/<variant>.vlnet`, a byte-for-byte copy of the trial that passed
//! (`data/eval/nets/trials/<variant>/`), so the file says how it was made.

use super::Network;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The embedded network files. The variant each is for is read from the file itself
/// ([`super::NetInfo::variant`]), so a name is not written twice.
const EMBEDDED: &[&[u8]] = &[
    include_bytes!("../../../data/eval/nets/chess.vlnet"),
    include_bytes!("../../../data/eval/nets/dream-chess-46.vlnet"),
];

/// The embedded default network of `variant` (a registry name), parsed once; `None` for a
/// variant that plays with its linear evaluation.
pub fn builtin_net(variant: &str) -> Option<Arc<Network>> {
    static PARSED: OnceLock<HashMap<String, Arc<Network>>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            EMBEDDED
                .iter()
                .map(|bytes| {
                    let net = Network::from_bytes(bytes)
                        .unwrap_or_else(|e| panic!("an embedded network: {e}"));
                    (net.info.variant.clone(), Arc::new(net))
                })
                .collect()
        })
        .get(variant)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::{builtin_net, EMBEDDED};
    use crate::{with_variant, VariantKind};

    /// Every embedded network is for a registered variant and fits its inputs, and each
    /// variant has at most one.
    #[test]
    fn embedded_networks_fit_their_variants() {
        let mut with_net = 0;
        for kind in VariantKind::ALL {
            if let Some(net) = builtin_net(kind.name()) {
                with_variant!(kind, G => {
                    assert_eq!(G::start().variant_name(), net.info.variant);
                    net.check::<G>().expect("the embedded network fits its variant");
                });
                with_net += 1;
            }
        }
        assert_eq!(
            with_net,
            EMBEDDED.len(),
            "one embedded network per variant, each registered"
        );
        assert!(builtin_net("chess").is_some());
        assert!(builtin_net("file").is_none());
    }

    /// Every network file in `data/eval/nets/` is embedded (a file added there and not to
    /// [`EMBEDDED`] would otherwise look like a default that is not one).
    #[test]
    fn every_network_file_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/eval/nets");
        let files: Vec<String> = std::fs::read_dir(dir)
            .expect("data/eval/nets")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".vlnet"))
            .collect();
        assert_eq!(files.len(), EMBEDDED.len(), "{files:?}");
        for name in files {
            let variant = name.trim_end_matches(".vlnet");
            assert!(builtin_net(variant).is_some(), "{name} is not embedded");
        }
    }
}
