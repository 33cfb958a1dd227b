"""The dream: orient → gather → synthesise → review → apply, each phase a function over plain data."""
