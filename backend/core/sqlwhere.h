#pragma once

#include <QSqlQuery>
#include <QString>
#include <QVariantList>

namespace Gatehouse::Core {

// The WHERE clause of a filtered list (orders, deliveries, beers, the audit log): conditions
// joined by AND, their values bound in the order they were added. Every value is a bound
// parameter; only the column names and conditions written in the code become SQL.
class SqlWhere
{
public:
    // "column = ?" when `value` is set; an empty filter field means "any".
    SqlWhere &equalIfSet(const char *column, const QString &value);
    // Any condition with its values, e.g. add(u"at >= ?", {since}).
    SqlWhere &add(QStringView condition, const QVariantList &values = {});

    // " WHERE a AND b", or nothing without conditions.
    QString sql() const;
    // Prepares `select + sql() + tail`, binds the conditions' values and then `tailValues`, and
    // runs it. False when the statement does not run.
    bool exec(QSqlQuery &query, const QString &select, QStringView tail = {},
              const QVariantList &tailValues = {}) const;

private:
    QString m_sql;
    QVariantList m_values;
};

// `text` as a LIKE pattern that matches only itself: its wildcards (% and _) and the escape
// character escaped with '!', for `LIKE ? ESCAPE '!'` (the same on SQLite and PostgreSQL).
QString likeLiteral(const QString &text);

} // namespace Gatehouse::Core
