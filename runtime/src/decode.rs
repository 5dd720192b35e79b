//! Decoding JSON into generated types with the location of the failure, for GVK dispatch (a generated crate's
//! `registry::DispatchError::Decode`).

use serde::de::DeserializeOwned;

/// A JSON value that does not decode into the generated type: where, and serde_json's error.
#[derive(Debug)]
pub struct DecodeError {
    /// The path of the offending value in JSON names, dot-separated with `[i]` for list items (`spec.replicas`,
    /// `items[0].quantity`); `.` for the value itself (serde_path_to_error's notation).
    pub path: String,
    /// serde_json's error (its message; no line or column, the input being a parsed value).
    pub error: serde_json::Error,
}

impl std::fmt::Display for DecodeError {
    /// `<path>: <error>`, or just the error when it concerns the whole value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path == "." {
            write!(f, "{}", self.error)
        } else {
            write!(f, "{}: {}", self.path, self.error)
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Decodes `value` into `T` exactly as `T::deserialize(value)` does, naming the path of the value that failed.
///
/// # Errors
/// [`DecodeError`] when a value has the wrong JSON type or a required value is missing — what the API server's
/// decoding rejects before validation.
pub fn decode<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, DecodeError> {
    serde_path_to_error::deserialize(value).map_err(|e| DecodeError {
        path: e.path().to_string(),
        error: e.into_inner(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Item {
        #[allow(dead_code)]
        quantity: Option<i32>,
    }

    #[derive(Debug, serde::Deserialize)]
    struct Spec {
        #[allow(dead_code)]
        items: Vec<Item>,
    }

    #[test]
    fn the_path_of_the_failing_value_is_named() {
        let e = decode::<Spec>(&serde_json::json!({"items": [{"quantity": 1}, {"quantity": "x"}]}))
            .unwrap_err();
        assert_eq!(e.path, "items[1].quantity");
        assert_eq!(
            e.to_string(),
            "items[1].quantity: invalid type: string \"x\", expected i32"
        );
        let e = decode::<Spec>(&serde_json::json!([])).unwrap_err();
        assert_eq!(e.path, ".");
        assert_eq!(e.to_string(), e.error.to_string());
        assert!(decode::<Spec>(&serde_json::json!({"items": []})).is_ok());
    }
}
