module example.com/acme/shipping

go 1.26
