-- The ground truth's tables, written by hand from what each file means (plain DuckDB reads the money as
-- text, cannot read Windows-1252 as UTF-8, and takes the preamble for the header). {dir} is this folder.
CREATE TABLE invoices AS
SELECT "Invoice #" AS invoice, "Customer" AS customer, "Region" AS region,
       strptime("Invoice Date", '%m/%d/%Y')::DATE AS invoice_date,
       replace(replace("Amount", '$', ''), ',', '')::DOUBLE AS amount,
       replace("Discount", '%', '')::DOUBLE AS discount, "Status" AS status
FROM read_csv('{dir}/invoices.csv', all_varchar = true)
WHERE "Customer" <> 'Total';  -- the Excel totals row is not an invoice

CREATE TABLE umsatz AS
SELECT strptime("Datum", '%d.%m.%Y')::DATE AS datum, "Filiale" AS filiale, "Produkt" AS produkt,
       "Menge"::BIGINT AS menge,
       replace(regexp_replace("Umsatz", '[^0-9,]', '', 'g'), ',', '.')::DOUBLE AS umsatz,
       replace(regexp_replace("Rabatt", '[^0-9,]', '', 'g'), ',', '.')::DOUBLE AS rabatt
FROM read_csv('{dir}/truth/umsatz-utf8.csv', all_varchar = true, delim = ';')  -- umsatz.csv in UTF-8
WHERE "Datum" <> 'Summe';  -- the footer sum is not a sale

CREATE TABLE budget AS
SELECT "Department" AS department, "Quarter" AS quarter,
       (CASE WHEN "Budget" LIKE '(%' THEN -1 ELSE 1 END) * regexp_replace("Budget", '[^0-9.]', '', 'g')::DOUBLE AS budget,
       (CASE WHEN "Actual" LIKE '(%' THEN -1 ELSE 1 END) * regexp_replace("Actual", '[^0-9.]', '', 'g')::DOUBLE AS actual,
       (CASE WHEN "Variance" LIKE '(%' THEN -1 ELSE 1 END) * regexp_replace("Variance", '[^0-9.]', '', 'g')::DOUBLE AS variance,
       replace("Variance %", '%', '')::DOUBLE AS variance_pct
FROM read_csv('{dir}/budget.csv', all_varchar = true, skip = 3, header = true);
