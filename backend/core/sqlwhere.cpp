#include "core/sqlwhere.h"

namespace Gatehouse::Core {

SqlWhere &SqlWhere::equalIfSet(const char *column, const QString &value)
{
    if (value.isEmpty())
        return *this;
    return add(QString::fromLatin1(column) + QLatin1String(" = ?"), {value});
}

SqlWhere &SqlWhere::add(QStringView condition, const QVariantList &values)
{
    m_sql += m_sql.isEmpty() ? QLatin1String(" WHERE ") : QLatin1String(" AND ");
    m_sql += condition;
    m_values += values;
    return *this;
}

QString SqlWhere::sql() const
{
    return m_sql;
}

bool SqlWhere::exec(QSqlQuery &query, const QString &select, QStringView tail,
                    const QVariantList &tailValues) const
{
    QString sql = select;
    sql += m_sql;
    sql += tail;
    if (!query.prepare(sql))
        return false;
    for (const QVariant &v : m_values)
        query.addBindValue(v);
    for (const QVariant &v : tailValues)
        query.addBindValue(v);
    return query.exec();
}

QString likeLiteral(const QString &text)
{
    QString pattern = text;
    pattern.replace(QLatin1Char('!'), QLatin1String("!!"))
        .replace(QLatin1Char('%'), QLatin1String("!%"))
        .replace(QLatin1Char('_'), QLatin1String("!_"));
    return pattern;
}

} // namespace Gatehouse::Core
