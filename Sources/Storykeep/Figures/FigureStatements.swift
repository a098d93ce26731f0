/// The SQL of the agency's figures: one call of a counting function per group of figures
/// (Migrations/0040_figures.sql), each one statement. $1 the first day, $2 the last, $3 the
/// tenant's time zone.
enum FigureStatements {
    /// Per week (Monday): week, null, entries, young people active. Per kind: null, kind, entries.
    static let entries = "select week, kind, entries, young_people from agency_figures_entries($1::date, $2::date, $3::text)"

    /// The shares made.
    static let shares = "select agency_figures_shares($1::date, $2::date, $3::text)"

    /// Alerts raised, acknowledged, and the median seconds to acknowledge.
    static let safety = "select raised, acknowledged, median_seconds from agency_figures_safety($1::date, $2::date, $3::text)"
}
