module example.com/things

go 1.25
