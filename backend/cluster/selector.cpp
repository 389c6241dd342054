#include "cluster/selector.h"

#include "cluster/admission.h"

namespace Gatehouse::Cluster {

QString fieldValue(const QJsonObject &object, const QString &path)
{
    QJsonValue v = object;
    for (const QString &part : path.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble());
    return v.toString();
}

bool Selector::Requirement::matches(bool present, const QString &value) const
{
    switch (op) {
    case Op::Exists:
        return present;
    case Op::NotExists:
        return !present;
    case Op::Equals:
        return present && value == values.value(0);
    case Op::NotEquals:
        return !present || value != values.value(0);
    case Op::In:
        return present && values.contains(value);
    case Op::NotIn:
        return !present || !values.contains(value);
    }
    return false;
}

namespace {

// Splits at commas outside parentheses.
QStringList splitRequirements(const QString &text, QString *error)
{
    QStringList out;
    QString cur;
    int depth = 0;
    for (const QChar c : text) {
        if (c == QLatin1Char('('))
            ++depth;
        if (c == QLatin1Char(')') && --depth < 0) {
            *error = QStringLiteral("unexpected ')'");
            return {};
        }
        if (c == QLatin1Char(',') && depth == 0) {
            out.append(cur.trimmed());
            cur.clear();
            continue;
        }
        cur += c;
    }
    if (depth != 0) {
        *error = QStringLiteral("missing ')'");
        return {};
    }
    out.append(cur.trimmed());
    return out;
}

} // namespace

std::optional<Selector> Selector::parseLabels(const QString &text, QString *error)
{
    Selector s;
    if (text.trimmed().isEmpty())
        return s;
    QString err;
    const QStringList parts = splitRequirements(text, &err);
    if (!err.isEmpty()) {
        *error = QStringLiteral("unable to parse requirement: ") + err;
        return std::nullopt;
    }
    for (const QString &p : parts) {
        if (p.isEmpty()) {
            *error = QStringLiteral("found '', expected: identifier");
            return std::nullopt;
        }
        Requirement r;
        const QStringList words = p.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() >= 2 &&
            (words[1] == QLatin1String("in") || words[1] == QLatin1String("notin"))) {
            r.key = words[0];
            r.op = words[1] == QLatin1String("in") ? Requirement::Op::In : Requirement::Op::NotIn;
            QString set = p.mid(p.indexOf(words[1]) + words[1].size()).trimmed();
            if (!set.startsWith(QLatin1Char('(')) || !set.endsWith(QLatin1Char(')'))) {
                *error = QStringLiteral("found '%1', expected: '('").arg(set);
                return std::nullopt;
            }
            for (const QString &v : set.mid(1, set.size() - 2).split(QLatin1Char(',')))
                r.values.append(v.trimmed());
        } else if (p.startsWith(QLatin1Char('!'))) {
            r.key = p.mid(1).trimmed();
            r.op = Requirement::Op::NotExists;
        } else if (const qsizetype ne = p.indexOf(QLatin1String("!=")); ne > 0) {
            r.key = p.left(ne).trimmed();
            r.op = Requirement::Op::NotEquals;
            r.values = {p.mid(ne + 2).trimmed()};
        } else if (const qsizetype eq = p.indexOf(QLatin1Char('=')); eq > 0) {
            r.key = p.left(eq).trimmed();
            r.op = Requirement::Op::Equals;
            QString v = p.mid(eq + 1);
            if (v.startsWith(QLatin1Char('=')))
                v = v.mid(1);
            r.values = {v.trimmed()};
        } else {
            r.key = p;
            r.op = Requirement::Op::Exists;
        }
        const QStringList keyErrors = Validation::qualifiedName(r.key);
        if (!keyErrors.isEmpty()) {
            *error = QStringLiteral("unable to parse requirement: values[0][%1]: Invalid value: "
                                    "\"%1\": %2")
                         .arg(r.key, keyErrors.first());
            return std::nullopt;
        }
        for (const QString &v : std::as_const(r.values)) {
            const QStringList valueErrors = Validation::labelValue(v);
            if (!valueErrors.isEmpty()) {
                *error = QStringLiteral("unable to parse requirement: values[0][%1]: Invalid "
                                        "value: \"%2\": %3")
                             .arg(r.key, v, valueErrors.first());
                return std::nullopt;
            }
        }
        s.m_requirements.append(r);
    }
    return s;
}

std::optional<Selector> Selector::parseFields(const QString &text, const QStringList &extraFields,
                                              QString *error)
{
    Selector s;
    if (text.trimmed().isEmpty())
        return s;
    const QStringList known =
        QStringList{QStringLiteral("metadata.name"), QStringLiteral("metadata.namespace")} +
        extraFields;
    for (const QString &raw : text.split(QLatin1Char(','))) {
        const QString p = raw.trimmed();
        Requirement r;
        qsizetype at = p.indexOf(QLatin1String("!="));
        if (at > 0) {
            r.op = Requirement::Op::NotEquals;
            r.key = p.left(at);
            r.values = {p.mid(at + 2)};
        } else if ((at = p.indexOf(QLatin1String("=="))) > 0) {
            r.op = Requirement::Op::Equals;
            r.key = p.left(at);
            r.values = {p.mid(at + 2)};
        } else if ((at = p.indexOf(QLatin1Char('='))) > 0) {
            r.op = Requirement::Op::Equals;
            r.key = p.left(at);
            r.values = {p.mid(at + 1)};
        } else {
            *error = QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(text, p);
            return std::nullopt;
        }
        if (!known.contains(r.key)) {
            *error = QStringLiteral("field label not supported: %1").arg(r.key);
            return std::nullopt;
        }
        s.m_requirements.append(r);
    }
    return s;
}

bool Selector::matchesLabels(const QJsonObject &object) const
{
    const QJsonObject labels = object.value(QLatin1String("metadata"))
                                   .toObject()
                                   .value(QLatin1String("labels"))
                                   .toObject();
    for (const Requirement &r : m_requirements) {
        const auto it = labels.constFind(r.key);
        const bool present = it != labels.constEnd();
        if (!r.matches(present, present ? it->toString() : QString()))
            return false;
    }
    return true;
}

bool Selector::matchesFields(const QJsonObject &object) const
{
    for (const Requirement &r : m_requirements)
        if (!r.matches(true, fieldValue(object, r.key)))
            return false;
    return true;
}

} // namespace Gatehouse::Cluster
