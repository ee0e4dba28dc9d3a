module example.com/acme/billing

go 1.26
