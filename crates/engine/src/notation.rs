//! Serde for an action type as its notation (style habit 4: one notation everywhere).

/// Implements `Serialize` and `Deserialize` for a type as its notation: the text its
/// `Display` writes and its `FromStr` reads, so JSON holds an action as a player types it.
///
/// ```
/// # use std::fmt;
/// # #[derive(Debug, PartialEq)]
/// struct Roll;
/// impl fmt::Display for Roll {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         f.write_str("roll")
///     }
/// }
/// impl std::str::FromStr for Roll {
///     type Err = String;
///     fn from_str(s: &str) -> Result<Roll, String> {
///         (s == "roll").then_some(Roll).ok_or_else(|| format!("no action {s}"))
///     }
/// }
/// engine::serde_as_notation!(Roll);
/// assert_eq!(serde_json::to_string(&Roll).unwrap(), r#""roll""#);
/// assert_eq!(serde_json::from_str::<Roll>(r#""roll""#).unwrap(), Roll);
/// assert!(serde_json::from_str::<Roll>(r#""fold""#).is_err());
/// ```
#[macro_export]
macro_rules! serde_as_notation {
    ($t:ty) => {
        impl $crate::__serde::Serialize for $t {
            fn serialize<S: $crate::__serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let text = <::std::string::String as $crate::__serde::Deserialize>::deserialize(d)?;
                text.parse()
                    .map_err(<D::Error as $crate::__serde::de::Error>::custom)
            }
        }
    };
}
