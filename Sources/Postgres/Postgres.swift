// The libpq client: see Pool.swift.
